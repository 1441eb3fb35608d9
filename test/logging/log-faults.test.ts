// The whole log of a fault run (Redis hung then killed with its breaker open, the database gone under the app and
// the outbox dispatcher) carries no stack and no source path: each error is its name, code and a short text.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectRestError, type TestApp } from '../support/app.js';
import { freePort, hasRedisServer, startOwnRedis } from '../support/processes.js';
import { expectNoStacksOrPaths, loggedErrors } from '../support/log-stacks.js';
import { captureLog } from '../support/run-log.js';
import { openDatabase } from '../../src/db/client.js';
import { createLogger } from '../../src/logging/logger.js';
import { createDispatcher } from '../../src/notify/dispatcher.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { postRest, targets, validBody } from '../inquiries/support.js';
import { testClock } from '../limits/clock.js';

if (!hasRedisServer) console.warn('[log-faults] Redis case skipped: redis-server is not on PATH');

const codesOf = (logs: string[]) => new Set(loggedErrors(logs).flatMap(({ error }) => [error.code, error.cause?.code]));

// A redis-server of this file's own, paused and killed (never the shared one on :6379).
describe.skipIf(!hasRedisServer)('Redis paused, then killed', () => {
  const clock = testClock();
  let redis: Awaited<ReturnType<typeof startOwnRedis>>;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startOwnRedis();
    t = await createTestApp({
      now: clock.now,
      limits: SPEC_POLICY,
      redisUrl: redis.url,
      commandTimeoutMs: 200,
      responseCache: { ttlSeconds: 300, shared: true, redisUrl: redis.url },
    });
  });
  afterAll(async () => {
    redis?.child.kill('SIGCONT');
    await t?.close();
    await redis?.stop();
  });

  it('logs the timeouts, the open breaker and the refused inquiry without a stack or a path', async () => {
    const tg = await targets(t);
    expect((await t.rest('/api/v1/vendors/categories', { key: t.keys.pro })).status).toBe(200);

    redis.child.kill('SIGSTOP');
    for (let i = 0; i < 5; i++) expect((await t.rest('/api/v1/vendors/categories', { key: t.keys.pro })).status).toBe(200);
    expect(t.app.limiterStoreState()).toBe('open');
    expectRestError(await postRest(t, 'venue', validBody('venue', tg), { key: t.keys.pro }), 503, 'service_unavailable');

    await redis.stop();
    clock.advance(5_000); // the half-open probe meets a dead Redis
    expect((await t.rest('/api/v1/vendors/categories', { key: t.keys.pro })).status).toBe(200);
    expectRestError(await postRest(t, 'venue', validBody('venue', tg), { key: t.keys.pro }), 503, 'service_unavailable');

    expect(expectNoStacksOrPaths(t.logs)).toBeGreaterThan(5);
    expect(t.logs.join('')).toContain('circuit breaker open');
    expect(codesOf(t.logs)).toContain('BREAKER_OPEN');
  });
});

describe('the database unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("logs Prisma's failures as name and code, without the call site or the excerpt Prisma's message quotes", async () => {
    const logs: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk));
          captureLog(String(chunk));
          done();
        },
      }),
    });
    // Nothing listens on a fresh free port: Prisma answers P1001 with "Invalid `prisma.notificationOutbox.findMany()`
    // invocation in …/dispatcher.ts" and an excerpt of its source.
    const unreachable = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/none`, migrate: false, poolSize: 1 });
    const dispatcher = createDispatcher({ prisma: unreachable.prisma, log, pollMs: 10 });
    try {
      dispatcher.start();
      for (let i = 0; i < 200 && !logs.join('').includes('poll failed'); i++) await new Promise((r) => setTimeout(r, 10));
      await dispatcher.stop();
    } finally {
      await unreachable.close();
    }

    // The app's own database closed under it: reads answer database_error and are logged with their request id.
    await t.db.close();
    expectRestError(await t.rest('/api/v1/venues?limit=1'), 500, 'database_error');
    expect((await t.graphql('{ venues(first: 1) { totalCount } }')).body.errors[0].extensions.code).toBe('database_error');

    expectNoStacksOrPaths(logs);
    expect(loggedErrors(logs)[0].error).toEqual({ name: 'PrismaClientKnownRequestError', code: 'P1001', message: 'database server unreachable' });
    expectNoStacksOrPaths(t.logs);
    const unexpected = loggedErrors(t.logs);
    expect(unexpected.length).toBeGreaterThanOrEqual(2);
    for (const { line } of unexpected) expect(line.requestId).toMatch(/^req_/);
  });
});
