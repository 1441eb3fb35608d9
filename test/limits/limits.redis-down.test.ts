import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectRestError, uniqueKeyPrefix, type TestApp } from '../support/app.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { createLogger } from '../../src/logging/logger.js';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { createRedisStore } from '../../src/limits/redis-store.js';
import { checkInquiry, checkRequest, createLimits } from '../../src/limits/limits.service.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { ApiError } from '../../src/errors/api-error.js';
import { hasRedisServer, startOwnRedis } from '../support/processes.js';
import { testClock } from './clock.js';

if (!hasRedisServer) console.warn('[limits.redis-down] skipped: redis-server is not on PATH');

// A throwaway redis-server of this test's own, killed mid-test (never the shared one on :6379).
describe.skipIf(!hasRedisServer)('Redis unreachable: the failure policy per limit', () => {
  const clock = testClock();
  let redis: Awaited<ReturnType<typeof startOwnRedis>>;
  let t: TestApp;
  beforeAll(async () => {
    redis = await startOwnRedis();
    t = await createTestApp({ now: clock.now, limits: 'spec', redisUrl: redis.url, commandTimeoutMs: 200 });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('reads keep being served (per-node counts, a logged warning); inquiries are refused with 503; nothing hangs', async () => {
    const key = (await createApiKey({ tier: 'free' }, t.db)).key;
    const identity = { id: 'inquirer', prefix: 'wv_live_test0000', tier: 'free' as const };
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      destination: new Writable({
        write: (c, _e, done) => {
          lines.push(String(c));
          done();
        },
      }),
    });
    const store = createRedisStore({ url: redis.url, keyPrefix: uniqueKeyPrefix(), commandTimeoutMs: 200 });
    const deps = { limits: createLimits({ policy: SPEC_POLICY, store, fallback: createMemoryStore(), log }), now: clock.now };
    try {
      for (let i = 0; i < 3; i++) expect((await t.rest('/api/v1/venues?limit=1', { key })).headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
      await checkInquiry(identity, 'venue', deps);
      expect(store.redis.status).toBe('ready');

      await redis.stop();

      const started = performance.now();
      const read = await t.rest('/api/v1/venues?limit=1', { key });
      expect(read.status, read.text).toBe(200);
      // Counted on this node from now on: the node's own log starts afresh (documented: up to nodes × limit).
      expect(read.headers.get('x-ratelimit-limit')).toBe('10');
      expect(read.headers.get('x-ratelimit-remaining')).toBe('9');
      const gql = await t.graphql('{ venues(first: 1) { totalCount } }', {}, { key });
      expect(gql.status).toBe(200);
      expect(t.logs.join('')).toContain('limiter store unreachable');
      // The fallback still limits: the 11th request of the minute is refused.
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) statuses.push((await t.rest('/api/v1/venues?limit=1', { key })).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);

      expect((await checkRequest(identity, deps)).allowed).toBe(true);
      const refused = await checkInquiry(identity, 'venue', deps).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).code).toBe('service_unavailable');
      expect((refused as ApiError).status).toBe(503);
      expect(lines.join('')).toContain('refusing a limit that fails closed');
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await store.close();
    }
  });

  it('a venue detail lookup fails open like reads', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    const slug = (await t.rest('/api/v1/venues?limit=1', { key })).body.data[0].slug as string;
    const res = await t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`, { key });
    expect(res.status, res.text).toBe(200);
    expectRestError(await t.rest('/api/v1/venues/no-such-venue', { key }), 404, 'venue_not_found');
  });
});
