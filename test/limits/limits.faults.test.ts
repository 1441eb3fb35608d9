// Faulty infrastructure, on private instances only (never the shared :6379 / :5432): a hung Redis is treated like a
// dead one; PostgreSQL restarted mid-traffic loses and duplicates nothing; kill -9 keeps every acknowledged lead.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { freePort, hasPostgresServer, hasRedisServer, startOwnPostgres, startOwnRedis, startServer } from '../support/processes.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { seedCatalogue } from '../../src/db/seed/catalogue.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { postRest, targets, validBody, type Targets } from '../inquiries/support.js';
import { testClock } from './clock.js';

// The two slow cases (a PostgreSQL cluster of their own; three embedded server starts) run when FAULT_TESTS=1
// (.ci/run sets it on its PostgreSQL run).
const slowFaults = process.env.FAULT_TESTS === '1';
if (!slowFaults) console.warn('[limits.faults] PostgreSQL restart and kill -9 cases skipped: set FAULT_TESTS=1 to run them');

describe.skipIf(!hasRedisServer)('Redis paused (SIGSTOP): the circuit breaker makes a hung Redis as cheap as a dead one', () => {
  const clock = testClock();
  let redis: Awaited<ReturnType<typeof startOwnRedis>>;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startOwnRedis();
    t = await createTestApp({ now: clock.now, limits: { ...SPEC_POLICY, inquiryPerDay: 100 }, redisUrl: redis.url, commandTimeoutMs: 200 });
  });
  afterAll(async () => {
    redis?.child.kill('SIGCONT');
    await t?.close();
    await redis?.stop();
  });

  async function timedReads(n: number): Promise<{ perSecond: number; statuses: number[] }> {
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < n; i++) statuses.push((await t.rest('/api/v1/vendors/categories', { key: t.keys.pro })).status);
    return { perSecond: Math.round((n / (performance.now() - started)) * 1000), statuses };
  }

  it('opens after 3 timeouts: reads fall back to memory at once, inquiries answer 503 at once; a probe closes it again', async () => {
    const tg: Targets = await targets(t);
    const running = await timedReads(40);
    expect(t.app.limiterStoreState()).toBe('closed');

    redis.child.kill('SIGSTOP');
    const opening = await timedReads(3); // each waits out the 200 ms command timeout
    expect(opening.statuses).toEqual([200, 200, 200]);
    expect(t.app.limiterStoreState()).toBe('open');
    const paused = await timedReads(40);
    expect(paused.statuses.every((s) => s === 200)).toBe(true);
    // Open: no request waits for Redis. (Measured here: see the closing note of issue 11 for the figures.)
    console.log(`[limits.faults] reads/s with Redis running ${running.perSecond}, paused (breaker open) ${paused.perSecond}`);
    expect(paused.perSecond).toBeGreaterThan(opening.perSecond * 5);

    const started = performance.now();
    const inquiry = await postRest(t, 'venue', validBody('venue', tg), { idem: 'paused-1', key: t.keys.pro });
    expectRestError(inquiry, 503, 'service_unavailable');
    expect(performance.now() - started).toBeLessThan(150);
    expect(inquiry.headers.get('retry-after')).toBe('5');
    expect(t.logs.join('')).toContain('circuit breaker open');

    redis.child.kill('SIGCONT');
    clock.advance(5_000);
    expect((await t.rest('/api/v1/vendors/categories', { key: t.keys.pro })).status).toBe(200);
    expect(t.app.limiterStoreState()).toBe('closed');
    const after = await postRest(t, 'venue', validBody('venue', tg), { idem: 'paused-1', key: t.keys.pro });
    expect(after.status, after.text).toBe(201);
  });

  it('Redis killed: the same, and GraphQL reads keep their data', async () => {
    await redis.stop();
    for (let i = 0; i < 3; i++) await t.rest('/api/v1/vendors/categories', { key: t.keys.pro });
    expect(t.app.limiterStoreState()).toBe('open');
    const gql = await t.graphql('{ vendorCategories { slug } }', {}, { key: t.keys.pro });
    expect(gql.status).toBe(200);
    expect(gql.body.data.vendorCategories.length).toBe(11);
  });
});

describe.skipIf(!slowFaults || !hasPostgresServer)('PostgreSQL restarted mid-traffic (a private cluster)', () => {
  let pg: Awaited<ReturnType<typeof startOwnPostgres>>;
  let db: Database;
  let t: TestApp;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    db = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
    await seedCatalogue(db.prisma, { venues: 40, vendors: 40 });
    t = await createTestApp({ database: db, redisUrl: null });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await pg?.destroy();
  });

  it('reads answer 500 database_error during the outage and recover without a restart; no lead lost or duplicated', async () => {
    const tg = await targets(t);
    const body = (i: number) => validBody(i % 2 ? 'vendor' : 'venue', tg, { guest_name: `Guest ${i}` });
    const post = (i: number) => postRest(t, i % 2 ? 'vendor' : 'venue', body(i), { idem: `restart-${i}` });
    const acknowledged = new Map<number, string>();
    for (const i of [0, 1, 2]) {
      const res = await post(i);
      expect(res.status, res.text).toBe(201);
      acknowledged.set(i, res.body.data.inquiry_id);
    }

    await pg.stop();
    const read = await t.rest('/api/v1/venues?limit=5');
    expectRestError(read, 500, 'database_error');
    expect(read.body.error.hint).toBeTruthy();
    const gql = await t.graphql('{ venues(first: 5) { totalCount } }');
    expectGraphQLError(gql, 'database_error');
    for (const i of [3, 4]) {
      const res = await post(i);
      expect(res.status, res.text).toBeGreaterThanOrEqual(500);
      expect(['database_error', 'insert_failed']).toContain(res.body.error.code);
      expect(res.text).not.toMatch(/ECONNREFUSED|at .+\.(ts|js):\d+|SELECT /);
    }

    await pg.start();
    let recovered = false;
    for (let attempt = 0; attempt < 20 && !recovered; attempt++) {
      recovered = (await t.rest('/api/v1/venues?limit=5')).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 100));
    }
    expect(recovered).toBe(true);
    // Every request retried with its key: the acknowledged ones replay, the failed ones are created once.
    for (const i of [0, 1, 2, 3, 4]) {
      const res = await post(i);
      expect(res.status, res.text).toBe(201);
      if (acknowledged.has(i)) expect(res.body.data.inquiry_id).toBe(acknowledged.get(i));
      acknowledged.set(i, res.body.data.inquiry_id);
    }
    const stored = await db.prisma.inquiry.findMany({ select: { id: true } });
    expect(stored.map((r) => r.id).sort()).toEqual([...acknowledged.values()].sort());
  });
});

describe.skipIf(!slowFaults)('kill -9 of the embedded server mid-inquiry stream', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('every acknowledged lead is there after a restart, each exactly once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-kill9-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { DATA_DIR: dataDir, PORT: String(port), BASE_URL: base, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' };
    const first = startServer(env);
    await first.waitFor('Demo API key');
    const key = /Demo API key[^:]*: (wv_live_\w+)/.exec(first.output())![1];
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const venue = (await (await fetch(`${base}/api/v1/venues?limit=1`, { headers })).json()).data[0].slug;
    const vendors = (await (await fetch(`${base}/api/v1/vendors?limit=20`, { headers })).json()).data;
    const vendor = vendors.find((v: { is_affiliate_only: boolean }) => !v.is_affiliate_only).slug;
    const tg = { venue, vendor } as Targets;

    // Ten inquiries (the demo key's 5 venue + 5 vendor slots), a new one every 30 ms; kill -9 after the 4th answer.
    const sent = Array.from({ length: 10 }, (_v, i) => ({
      kind: i % 2 ? 'vendor' : 'venue',
      body: validBody(i % 2 ? 'vendor' : 'venue', tg, { guest_name: `Kill ${i}` }),
    }));
    const acknowledged = new Map<number, string>();
    const inFlight = sent.map(async ({ kind, body }, i) => {
      await new Promise((r) => setTimeout(r, i * 30));
      try {
        const res = await fetch(`${base}/api/v1/inquiries/${kind}`, {
          method: 'POST',
          headers: { ...headers, 'x-idempotency-key': `kill-${i}` },
          body: JSON.stringify(body),
        });
        if (res.status === 201) acknowledged.set(i, (await res.json()).data.inquiry_id);
        if (acknowledged.size === 4) first.child.kill('SIGKILL');
      } catch {
        // connection reset by the kill: not acknowledged
      }
    });
    await Promise.all(inFlight);
    await first.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(4);

    const second = startServer(env);
    await second.waitFor('ready in');
    const ids = new Map<number, string>();
    for (const [i, { kind, body }] of sent.entries()) {
      const res = await fetch(`${base}/api/v1/inquiries/${kind}`, {
        method: 'POST',
        headers: { ...headers, 'x-idempotency-key': `kill-${i}` },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      ids.set(i, (await res.json()).data.inquiry_id);
    }
    for (const [i, id] of acknowledged) expect(ids.get(i), `acknowledged lead ${i}`).toBe(id);
    await second.stop();
    expect(await second.exited).toBe(0);

    const db = await openDatabase({ dataDir });
    try {
      const stored = await db.prisma.inquiry.findMany({ select: { id: true } });
      expect(stored.map((r) => r.id).sort()).toEqual([...new Set(ids.values())].sort());
      expect(stored).toHaveLength(10);
    } finally {
      await db.close();
    }
  });
});
