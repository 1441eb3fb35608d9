import { createHmac } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Logger } from '../logging/logger.js';

/**
 * Delivers the outbox (§3 "the team is notified immediately"): every NotificationOutbox row is POSTed to the webhook,
 * signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature), until the receiver accepts it
 * (2xx). At-least-once: a receiver dedupes by webhook-id (also the payload's notification_id) and refuses stale
 * timestamps, so a captured delivery cannot be replayed later. Rows are never deleted or dropped, whatever the receiver does; with no URL each lead
 * is written to the log instead.
 */
export interface DispatcherOptions {
  prisma: PrismaClient;
  log: Logger;
  /** NOTIFY_WEBHOOK_URL; unset → each lead is logged. */
  url?: string;
  /** Told of each attempt (metrics). */
  onAttempt?: (outcome: 'delivered' | 'failed' | 'logged') => void;
  /** NOTIFY_WEBHOOK_SECRET, `whsec_<base64>`: the HMAC-SHA256 key of webhook-signature (Standard Webhooks). */
  secret?: string;
  /** Jitter source, [0, 1). @default Math.random */
  random?: () => number;
  /** @default () => new Date() */
  now?: () => Date;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Milliseconds between polls. @default 1000 */
  pollMs?: number;
  /** First retry delay, milliseconds; doubles per failed attempt. @default 1000 */
  baseDelayMs?: number;
  /** Longest retry delay, milliseconds. @default 300000 */
  maxDelayMs?: number;
  /** A row taken by one node is left alone by the others this long, milliseconds. @default 60000 */
  leaseMs?: number;
  /** Per-delivery timeout, milliseconds. @default 10000 */
  timeoutMs?: number;
  /** Rows per poll. @default 20 */
  batch?: number;
}

export interface Dispatcher {
  /** One poll: delivers what is due; returns how many were accepted. */
  runOnce: () => Promise<number>;
  start: () => void;
  /** Stops polling and waits for the poll in flight. */
  stop: () => Promise<void>;
}

/** What of a lead may be logged: its ids and kind, never its contents. */
function leadReference(payload: unknown): { inquiryId?: unknown; kind?: unknown } {
  const inquiry = (payload as { inquiry?: { id?: unknown; kind?: unknown } } | null)?.inquiry;
  return { inquiryId: inquiry?.id, kind: inquiry?.kind };
}

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the secret's
 * base64 part (after `whsec_`).
 */
export function signatureOf(id: string, timestampSeconds: number, body: string, secret: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * Exponential backoff with jitter: base·2^(attempts−1), capped, then scaled into [½, 1) of itself so that nodes retrying
 * one failed receiver spread out instead of arriving together.
 */
export const retryDelayMs = (attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random) =>
  Math.round(Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1)) * (0.5 + random() / 2));

/** Long because claiming, sending, retrying and stopping share the dispatcher's timer and in-flight state. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { prisma, log } = options;
  const now = options.now ?? (() => new Date());
  const doFetch = options.fetch ?? globalThis.fetch;
  const pollMs = options.pollMs ?? 1000;
  const baseDelayMs = options.baseDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 300_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const random = options.random ?? Math.random;

  async function deliver(id: string, payload: unknown): Promise<void> {
    const body = JSON.stringify(payload);
    if (!options.url) {
      // Lead contents (names, e-mails, phones, messages) never reach a log: ids only. The lead is in the database.
      options.onAttempt?.('logged');
      log.info({ notificationId: id, ...leadReference(payload) }, 'new lead (NOTIFY_WEBHOOK_URL unset: not sent anywhere)');
      return;
    }
    // The timestamp is the wall clock of the send: receivers compare it with theirs to refuse replays.
    const timestamp = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp) };
    if (options.secret) headers['webhook-signature'] = signatureOf(id, timestamp, body, options.secret);
    const response = await doFetch(options.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) throw new Error(`webhook answered ${response.status}`);
  }

  async function runOnce(): Promise<number> {
    const started = now();
    const due = await prisma.notificationOutbox.findMany({
      where: { deliveredAt: null, nextAttemptAt: { lte: started } },
      orderBy: { createdAt: 'asc' },
      take: options.batch ?? 20,
    });
    let delivered = 0;
    for (const row of due) {
      // Take the row (compare-and-set on nextAttemptAt) so another node polling now leaves it alone.
      const taken = await prisma.notificationOutbox.updateMany({
        where: { id: row.id, deliveredAt: null, nextAttemptAt: row.nextAttemptAt },
        data: { nextAttemptAt: new Date(now().getTime() + leaseMs) },
      });
      if (taken.count !== 1) continue;
      const attempts = row.attempts + 1;
      try {
        await deliver(row.id, row.payload);
        if (options.url) options.onAttempt?.('delivered');
        await prisma.notificationOutbox.update({ where: { id: row.id }, data: { deliveredAt: now(), attempts, lastError: null } });
        delivered++;
      } catch (error) {
        options.onAttempt?.('failed');
        const message = error instanceof Error ? error.message : String(error);
        const nextAttemptAt = new Date(now().getTime() + retryDelayMs(attempts, baseDelayMs, maxDelayMs, random));
        await prisma.notificationOutbox.update({ where: { id: row.id }, data: { attempts, nextAttemptAt, lastError: message.slice(0, 500) } });
        log.warn({ notificationId: row.id, attempts, nextAttemptAt, err: error }, 'notification not delivered; will retry');
      }
    }
    return delivered;
  }

  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  let stopped = true;
  const tick = () => {
    inFlight = runOnce()
      .catch((error: unknown) => log.error({ err: error }, 'notification dispatcher poll failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  return {
    runOnce,
    start: () => {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
