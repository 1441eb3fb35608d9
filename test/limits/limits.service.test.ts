import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { createRedisStore } from '../../src/limits/redis-store.js';
import { checkInquiry, checkRequest, createLimits, type LimitsDeps } from '../../src/limits/limits.service.js';
import { DAY_MS, SPEC_POLICY } from '../../src/limits/limits.policy.js';
import type { SlidingLogStore } from '../../src/limits/sliding-log.js';
import type { ApiKeyIdentity } from '../../src/auth/api-keys.service.js';
import { ApiError } from '../../src/errors/api-error.js';
import { uniqueKeyPrefix } from '../support/app.js';
import { testClock } from './clock.js';

const stores: [string, () => SlidingLogStore][] = [['memory', () => createMemoryStore()]];
if (process.env.TEST_REDIS_URL) stores.push(['redis', () => createRedisStore({ url: process.env.TEST_REDIS_URL!, keyPrefix: uniqueKeyPrefix() })]);
const silent = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });
const identity = (id: string): ApiKeyIdentity => ({ id, prefix: 'wv_live_test0000', tier: 'free' });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (e) {
    return e instanceof ApiError ? e.code : String(e);
  }
}

describe.each(stores)('inquiry limits on %s (§8 row 4)', (_name, make) => {
  const clock = testClock();
  const store = make();
  const deps: LimitsDeps = { limits: createLimits({ policy: SPEC_POLICY, store, fallback: createMemoryStore(), log: silent }), now: clock.now };
  afterAll(() => store.close());

  it('5 a day for each kind, every tier, rolling; a replay (not checked again) takes no slot', async () => {
    const key = identity('inq-1');
    const start = clock.ms;
    for (let i = 0; i < 5; i++) {
      expect(await codeOf(checkInquiry(key, 'venue', deps))).toBe('ok');
      clock.advance(60_000);
    }
    expect(await codeOf(checkInquiry(key, 'venue', deps))).toBe('inquiry_rate_limit_exceeded');
    // The other kind is counted apart, and so are the key's reads (an idempotent retry only counts as a request).
    expect(await codeOf(checkInquiry(key, 'vendor', deps))).toBe('ok');
    expect((await checkRequest(key, deps)).allowed).toBe(true);
    try {
      await checkInquiry(key, 'venue', deps);
    } catch (e) {
      expect((e as ApiError).status).toBe(429);
      expect((e as ApiError).headers?.['Retry-After']).toBe(String((start + DAY_MS - clock.ms) / 1000));
    }
    clock.advance(start + DAY_MS - clock.ms);
    expect(await codeOf(checkInquiry(key, 'venue', deps))).toBe('ok');
    expect(await codeOf(checkInquiry(key, 'venue', deps))).toBe('inquiry_rate_limit_exceeded');
  });

  it('50 concurrent submissions let exactly 5 through', async () => {
    const key = identity('inq-2');
    const codes = await Promise.all(Array.from({ length: 50 }, () => codeOf(checkInquiry(key, 'vendor', deps))));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(5);
  });
});

describe('RateLimit-Policy (§8.3, IETF fields)', () => {
  const clock = testClock();
  const depsOf = (policy: typeof SPEC_POLICY): LimitsDeps => ({
    limits: createLimits({ policy, store: createMemoryStore(), fallback: createMemoryStore(), log: silent }),
    now: clock.now,
  });

  it("names each tier's own numbers and each policy's own, request after request", async () => {
    const raised = { ...SPEC_POLICY, requests: { ...SPEC_POLICY.requests, pro: { perMinute: 7, perDay: 70 } } };
    const [spec, other] = [depsOf(SPEC_POLICY), depsOf(raised)];
    const pro = { ...identity('policy-1'), tier: 'pro' as const };
    const { perMinute, perDay } = SPEC_POLICY.requests.pro;
    for (let i = 0; i < 3; i++) {
      expect((await checkRequest(pro, spec)).headers['RateLimit-Policy']).toBe(`"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`);
      expect((await checkRequest(pro, other)).headers['RateLimit-Policy']).toBe('"minute";q=7;w=60, "day";q=70;w=86400');
    }
    const free = SPEC_POLICY.requests.free;
    expect((await checkRequest(identity('policy-2'), spec)).headers['RateLimit-Policy']).toBe(
      `"minute";q=${free.perMinute};w=60, "day";q=${free.perDay};w=86400`,
    );
  });
});
