import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { Webhook } from 'standardwebhooks';
import { adminQuery, databaseUrl } from '../support/database.js';
import { freePort, startServer } from '../support/processes.js';

const SECRET = `whsec_${Buffer.from('two-process-webhook-secret-0123456789').toString('base64')}`;
const postgres = inject('testDatabases').postgres;
const redisUrl = process.env.TEST_REDIS_URL;

// Two real server processes on one PostgreSQL and one Redis: only meaningful on the PostgreSQL + Redis run.
describe.skipIf(!postgres || !redisUrl)('two server processes sharing PostgreSQL and Redis', () => {
  const children: ChildProcess[] = [];
  let db: Database | undefined;
  let name = '';
  let hook: Server | undefined;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await db?.close();
    await new Promise<void>((r) => (hook ? hook.close(() => r()) : r()));
    if (name) await adminQuery(postgres!.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('20 parallel identical requests with one key split over both: one lead, one slot, one notification', async () => {
    name = `${postgres!.clonePrefix}${randomBytes(6).toString('hex')}`;
    await adminQuery(postgres!.adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${postgres!.templates.seeded}"`);
    const url = databaseUrl(postgres!.adminUrl, name);
    db = await openDatabase({ databaseUrl: url, migrate: false, poolSize: 2 });
    const { key } = await createApiKey({ tier: 'pro', name: 'two processes' }, db);
    const venue = await db.prisma.venue.findFirstOrThrow({ where: { published: true } });

    const received: Array<{ id: string; body: string; headers: Record<string, string> }> = [];
    const hookPort = await freePort();
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ id: String(req.headers['webhook-id']), body, headers: req.headers as Record<string, string> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook!.listen(hookPort, '127.0.0.1', () => r()));

    const ports = [await freePort(), await freePort()];
    const servers = ports.map((port) =>
      startServer({
        DATABASE_URL: url,
        REDIS_URL: redisUrl!,
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'warn',
        NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${hookPort}/hook`,
        NOTIFY_WEBHOOK_SECRET: SECRET,
      }),
    );
    children.push(...servers.map((s) => s.child));
    await Promise.all(servers.map((s) => s.waitFor('ready in')));

    const guestName = `two-proc-${randomUUID()}`;
    const body = JSON.stringify({
      property_slug: venue.slug,
      start_date: '2027-05-01',
      end_date: '2027-05-03',
      event_guests: 50,
      guest_name: guestName,
      guest_email: 'x@example.com',
      sms_consent: true,
    });
    const idem = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`http://127.0.0.1:${ports[i % 2]}/api/v1/inquiries/venue`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-idempotency-key': idem },
          body,
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      ),
    );
    const ids = new Set<string>();
    for (const r of responses) {
      if (r.status === 201) ids.add(r.body.data.inquiry_id);
      else {
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe('idempotency_in_progress');
      }
    }
    expect(ids.size).toBe(1);
    expect(await db.prisma.inquiry.count({ where: { guestName } })).toBe(1);
    const status = await fetch(`http://127.0.0.1:${ports[0]}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ rateLimit { venueInquiriesPerDay { used } } }' }),
    }).then((r) => r.json() as Promise<any>);
    expect(status.data.rateLimit.venueInquiriesPerDay.used).toBe(1);

    // Both processes run a dispatcher: the lead's notification arrives exactly once, signed.
    const deadline = Date.now() + 15_000;
    while (!received.some((r) => JSON.parse(r.body).inquiry.guestName === guestName) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2500)); // a duplicate, if any, would arrive within two poll intervals
    const mine = received.filter((r) => JSON.parse(r.body).inquiry.guestName === guestName);
    expect(mine).toHaveLength(1);
    expect(new Webhook(SECRET).verify(mine[0].body, mine[0].headers)).toEqual(JSON.parse(mine[0].body));
  });
});
