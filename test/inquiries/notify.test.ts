import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { Webhook } from 'standardwebhooks';
import { createDispatcher, retryDelayMs, signatureOf } from '../../src/notify/dispatcher.js';
import { postRest, targets, validBody, type Targets } from './support.js';
import { freePort } from '../support/processes.js';

const SECRET = `whsec_${Buffer.from('test-webhook-secret-0123456789abcdef').toString('base64')}`;

/** A webhook receiver that records each delivery; `failFirst` answers 500 to that many requests first. */
function receiver(port: number, failFirst = 0) {
  const received: Array<{ id: string; body: string; headers: Record<string, string> }> = [];
  let failures = failFirst;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (failures-- > 0) {
        res.writeHead(500).end();
        return;
      }
      received.push({ id: String(req.headers['webhook-id']), body, headers: req.headers as Record<string, string> });
      res.writeHead(204).end();
    });
  });
  return {
    received,
    listen: () => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r())),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
});
afterAll(() => t.close());

describe('lead notifications (§3, outbox)', () => {
  it('webhook down at first, then up: every lead arrives exactly once by id, signed; nothing is lost', async () => {
    // Deliver only this test's rows: earlier outbox rows of the shared database are marked delivered first.
    await t.db.prisma.notificationOutbox.updateMany({ where: { deliveredAt: null }, data: { deliveredAt: new Date() } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const kind = i % 2 ? 'vendor' : 'venue';
      const res = await postRest(t, kind, validBody(kind, tg, { guest_name: `notify-${i}-${randomUUID()}` }));
      expect(res.status).toBe(201);
      ids.push(res.body.data.inquiry_id);
    }
    const port = await freePort();
    let clock = Date.now();
    const logs: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write(c, _e, done) {
          logs.push(String(c));
          done();
        },
      }),
    });
    const dispatcher = createDispatcher({
      random: () => 0.999_999,
      prisma: t.db.prisma,
      log,
      url: `http://127.0.0.1:${port}/hook`,
      secret: SECRET,
      now: () => new Date(clock),
      baseDelayMs: 1000,
      timeoutMs: 2000,
    });

    // Down: connection refused; each row is retried later with backoff, never dropped.
    expect(await dispatcher.runOnce()).toBe(0);
    expect(await dispatcher.runOnce()).toBe(0); // not due yet
    const pending = await t.db.prisma.notificationOutbox.findMany({ where: { deliveredAt: null } });
    expect(pending).toHaveLength(4);
    for (const row of pending) {
      expect(row.attempts).toBe(1);
      expect(row.nextAttemptAt.getTime()).toBe(clock + 1000);
    }
    clock += 1000;
    expect(await dispatcher.runOnce()).toBe(0);
    expect((await t.db.prisma.notificationOutbox.findFirstOrThrow({ where: { deliveredAt: null } })).nextAttemptAt.getTime()).toBe(clock + 2000);

    // Up, but the first two answers are 500: those rows wait for their next backoff.
    const hook = receiver(port, 2);
    await hook.listen();
    try {
      clock += 2000;
      expect(await dispatcher.runOnce()).toBe(2);
      clock += 4000;
      expect(await dispatcher.runOnce()).toBe(2);
      clock += 60_000;
      expect(await dispatcher.runOnce()).toBe(0); // nothing left; nothing sent twice

      expect(hook.received.map((r) => r.id).sort()).toEqual([...new Set(hook.received.map((r) => r.id))].sort());
      expect(hook.received).toHaveLength(4);
      const leads = hook.received.map((r) => JSON.parse(r.body));
      expect(leads.map((l) => l.inquiry.id).sort()).toEqual([...ids].sort());
      for (const r of hook.received) {
        // Verified by the Standard Webhooks reference library: signature, id and a fresh timestamp.
        expect(new Webhook(SECRET).verify(r.body, r.headers)).toEqual(JSON.parse(r.body));
        expect(r.headers['webhook-signature']).toBe(signatureOf(r.id, Number(r.headers['webhook-timestamp']), r.body, SECRET));
        // A replay with the body altered, or an old timestamp, is refused by the receiver.
        expect(() => new Webhook(SECRET).verify(`${r.body} `, r.headers)).toThrow();
        const old = String(Number(r.headers['webhook-timestamp']) - 600);
        expect(() =>
          new Webhook(SECRET).verify(r.body, {
            ...r.headers,
            'webhook-timestamp': old,
            'webhook-signature': signatureOf(r.id, Number(old), r.body, SECRET),
          }),
        ).toThrow();
        expect(JSON.parse(r.body).notification_id).toBe(r.id);
      }
      expect(await t.db.prisma.notificationOutbox.count({ where: { inquiryId: { in: ids }, deliveredAt: null } })).toBe(0);
    } finally {
      await hook.close();
    }
    expect(logs.join('')).toMatch(/will retry/);
  });

  it('with no URL each lead is logged; start/stop poll on a timer', async () => {
    await t.db.prisma.notificationOutbox.updateMany({ where: { deliveredAt: null }, data: { deliveredAt: new Date() } });
    const res = await postRest(t, 'venue', validBody('venue', tg, { guest_name: `logged-${randomUUID()}` }));
    const logs: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write(c, _e, done) {
          logs.push(String(c));
          done();
        },
      }),
    });
    const dispatcher = createDispatcher({ random: () => 0.999_999, prisma: t.db.prisma, log, pollMs: 20 });
    dispatcher.start();
    for (let i = 0; i < 100 && !logs.join('').includes(res.body.data.inquiry_id); i++) await new Promise((r) => setTimeout(r, 20));
    await dispatcher.stop();
    expect(logs.join('')).toContain(res.body.data.inquiry_id);
    expect(logs.join('')).toMatch(/new lead/);
  });

  it('backs off exponentially up to a cap, with jitter in [½, 1) of each step', () => {
    const almostOne = () => 0.999_999;
    expect([1, 2, 3, 4, 20].map((n) => retryDelayMs(n, 1000, 300_000, almostOne))).toEqual([1000, 2000, 4000, 8000, 300_000]);
    expect([1, 2, 3, 4, 20].map((n) => retryDelayMs(n, 1000, 300_000, () => 0))).toEqual([500, 1000, 2000, 4000, 150_000]);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs(3, 1000, 300_000);
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(4000);
    }
  });
});
