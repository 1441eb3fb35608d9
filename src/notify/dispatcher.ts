import { createHmac } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Logger } from '../logging/logger.js';

/**
 * Delivers the outbox (§3 "the team is notified immediately"): every NotificationOutbox row is POSTed to the webhook,
 * signed, until the receiver accepts it (2xx). At-least-once: a receiver dedupes by X-Notification-Id (also the
 * payload's notification_id). Rows are never deleted or dropped, whatever the receiver does; with no URL each lead
 * is written to the log instead.
 */
export interface DispatcherOptions {
  prisma: PrismaClient;
  log: Logger;
  /** NOTIFY_WEBHOOK_URL; unset → each lead is logged. */
  url?: string;
  /** NOTIFY_WEBHOOK_SECRET: X-Signature is `sha256=<hex HMAC-SHA256 of the raw body>`. */
  secret?: string;
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

export const signatureOf = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Exponential backoff: base·2^(attempts−1), capped. */
export const retryDelayMs = (attempts: number, baseMs: number, maxMs: number) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { prisma, log } = options;
  const now = options.now ?? (() => new Date());
  const doFetch = options.fetch ?? globalThis.fetch;
  const pollMs = options.pollMs ?? 1000;
  const baseDelayMs = options.baseDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 300_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function deliver(id: string, payload: unknown): Promise<void> {
    const body = JSON.stringify(payload);
    if (!options.url) {
      log.info({ notificationId: id, lead: payload }, 'new lead (NOTIFY_WEBHOOK_URL unset: logged only)');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-notification-id': id };
    if (options.secret) headers['x-signature'] = signatureOf(body, options.secret);
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
        await prisma.notificationOutbox.update({ where: { id: row.id }, data: { deliveredAt: now(), attempts, lastError: null } });
        delivered++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const nextAttemptAt = new Date(now().getTime() + retryDelayMs(attempts, baseDelayMs, maxDelayMs));
        await prisma.notificationOutbox.update({ where: { id: row.id }, data: { attempts, nextAttemptAt, lastError: message.slice(0, 500) } });
        log.warn({ notificationId: row.id, attempts, nextAttemptAt, error: message }, 'notification not delivered; will retry');
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
