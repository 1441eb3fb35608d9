// Unauthenticated work is bounded: wrong keys per client IP, and a health check that costs one probe a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { testClock } from '../limits/clock.js';

const clock = testClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, limits: 'spec', trustProxy: true });
});
afterAll(() => t.close());

const { limit, windowMs } = SPEC_POLICY.failedKeyAttempts;
const WRONG = 'wv_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe(`failed key attempts: ${limit} per client IP in ${windowMs / 60_000} minutes`, () => {
  it('each wrong key is a 401 without rate limit headers; past the budget the IP is refused with 429 before any lookup', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < limit; i++) {
      const res = await t.rest('/api/v1/venues', { key: i % 2 ? WRONG : 'not-even-a-key', headers: from(ip) });
      expectRestError(res, 401, 'invalid_api_key');
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    const queries: string[] = [];
    const stop = t.db.onQuery((e) => queries.push(e.query));
    const refused = await t.rest('/api/v1/venues', { key: WRONG, headers: from(ip) });
    const gql = await t.graphql('{ venues(first: 1) { totalCount } }', {}, { key: WRONG, headers: from(ip) });
    // A valid key from the same address is refused too: the refusal comes before the key is looked at.
    const valid = await t.rest('/api/v1/venues', { key: t.keys.pro, headers: from(ip) });
    stop();
    expectRestError(refused, 429, 'rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBe(windowMs / 1000);
    expect(refused.body.error.hint).toContain('key');
    expect(gql.status).toBe(429);
    expectGraphQLError(gql, 'rate_limit_exceeded');
    expectRestError(valid, 429, 'rate_limit_exceeded');
    expect(queries.filter((q) => /"ApiKey"/.test(q))).toEqual([]);

    // Other addresses are not affected.
    expect((await t.rest('/api/v1/venues?limit=1', { key: t.keys.pro, headers: from('203.0.113.11') })).status).toBe(200);
    expectRestError(await t.rest('/api/v1/venues', { key: WRONG, headers: from('203.0.113.11') }), 401, 'invalid_api_key');

    // The window rolls: at +10 min the oldest attempts expire and keys are looked at again.
    clock.advance(windowMs - 1);
    expectRestError(await t.rest('/api/v1/venues', { key: WRONG, headers: from(ip) }), 429, 'rate_limit_exceeded');
    clock.advance(1);
    expect((await t.rest('/api/v1/venues?limit=1', { key: t.keys.pro, headers: from(ip) })).status).toBe(200);
  });

  it('valid keys never use the budget, and a missing key is the keyless budget (§8.4), not this one', async () => {
    const ip = '203.0.113.20';
    for (let i = 0; i < limit + 5; i++) expect((await t.rest('/api/v1/venues?limit=1', { key: t.keys.partner, headers: from(ip) })).status).toBe(200);
    for (let i = 0; i < limit + 5; i++) expectRestError(await t.rest('/api/v1/venues', { key: null, headers: from(ip) }), 401, 'missing_api_key');
    expectRestError(await t.rest('/api/v1/venues', { key: WRONG, headers: from(ip) }), 401, 'invalid_api_key');
  });
});

describe('GET /healthz answers from a cached probe', () => {
  it('1,000 concurrent checks cost one probe; the next second probes again; a failing probe is 503', async () => {
    let probes = 0;
    let up = true;
    const healthClock = testClock();
    const app = createApp({
      prisma: t.db.prisma,
      readRows: t.db.readRows,
      log: createLogger({ level: 'silent' }),
      baseUrl: 'http://api.test',
      cursorSecret: 'test-cursor-secret-0123456789abcdef0123456789',
      now: healthClock.now,
      databaseAnswers: async () => {
        probes++;
        return up;
      },
    });
    try {
      const check = () => app.fetch(new Request('http://api.test/healthz'));
      const answers = await Promise.all(Array.from({ length: 1000 }, check));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(probes).toBe(1);
      const body = await answers[0].json();
      expect(body).toMatchObject({ status: 'ok', database: 'up', checked_at: healthClock.now().toISOString() });
      healthClock.advance(999);
      await check();
      expect(probes).toBe(1);
      healthClock.advance(1);
      up = false;
      const down = await check();
      expect(probes).toBe(2);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'unavailable', database: 'down' });
    } finally {
      await app.close();
    }
  });
});
