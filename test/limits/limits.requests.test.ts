import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, expectGraphQLError, expectRestError, type TestApp, type TestResponse } from '../support/app.js';
import { LIVE_KEY_PREFIX } from '../../src/auth/api-keys.service.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { DAY_MS, MINUTE_MS } from '../../src/limits/limits.policy.js';
import { testClock } from './clock.js';

const clock = testClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, limits: 'spec', trustProxy: true });
});
afterAll(() => t.close());

const REST = '/api/v1/venues?limit=1';
const GQL = '{ venues(first: 1) { totalCount } }';
const newKey = async (tier: 'free' | 'pro' | 'partner') => (await createApiKey({ tier }, t.db)).key;
const limitHeaders = (res: TestResponse) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});
const context = (res: TestResponse) => `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 300)}`;

describe('read requests and burst (§8 rows 1–2, §8.1, §8.3)', () => {
  it('one allowance for both surfaces: headers on every response, 429 on the 11th request in a rolling minute (Free)', async () => {
    const key = await newKey('free');
    const start = clock.ms;
    for (let i = 0; i < 10; i++) {
      const res = i % 2 ? await t.graphql(GQL, {}, { key }) : await t.rest(REST, { key });
      expect(res.status, context(res)).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: '10', remaining: String(9 - i), reset: String(clock.seconds(start + MINUTE_MS)), retryAfter: null });
      clock.advance(1000);
    }
    // 10 s after the first request: the first slot frees at start + 60 s, 50 s from now.
    const rest = await t.rest(REST, { key });
    expectRestError(rest, 429, 'rate_limit_exceeded');
    expect(rest.body.error.hint).toBeTruthy();
    expect(limitHeaders(rest)).toEqual({ limit: '10', remaining: '0', reset: String(clock.seconds(start + MINUTE_MS)), retryAfter: '50' });
    const gql = await t.graphql(GQL, {}, { key });
    expect(gql.status, context(gql)).toBe(429);
    expectGraphQLError(gql, 'rate_limit_exceeded');
    expect(gql.headers.get('retry-after')).toBe('50');
    expect(gql.headers.get('x-ratelimit-remaining')).toBe('0');

    // Refused requests took nothing: at start + 59.999 s still refused (Retry-After never 0), at start + 60 s one slot.
    clock.advance(start + MINUTE_MS - 1 - clock.ms);
    const edge = await t.rest(REST, { key });
    expect(edge.status).toBe(429);
    expect(edge.headers.get('retry-after')).toBe('1');
    clock.advance(1);
    const freed = await t.rest(REST, { key });
    expect(freed.status, context(freed)).toBe(200);
    expect(freed.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(freed.headers.get('x-ratelimit-reset')).toBe(String(clock.seconds(start + 1000 + MINUTE_MS)));
    expect((await t.graphql(GQL, {}, { key })).status).toBe(429);
  });

  it('Pro and Partner get 60 a minute (X-RateLimit-Limit 60)', async () => {
    for (const tier of ['pro', 'partner'] as const) {
      const key = await newKey(tier);
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) statuses.push((await t.rest(REST, { key })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses[60]).toBe(429);
      const res = await t.graphql(GQL, {}, { key });
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    }
  });

  it('100 reads a day (Free); the 24th hour frees the oldest daily slot; no reset at midnight', async () => {
    const key = await newKey('free');
    const start = clock.ms;
    for (let i = 0; i < 100; i++) {
      const res = await t.rest(REST, { key });
      expect(res.status, `request ${i}: ${context(res)}`).toBe(200);
      clock.advance(10_000); // 6 a minute: under the burst limit
    }
    const refused = await t.rest(REST, { key });
    expectRestError(refused, 429, 'rate_limit_exceeded');
    // §8.3: the headers describe the rolling minute (5 of its 10 used: requests at +950 s … +990 s), while
    // Retry-After covers the daily window that refused: the oldest daily slot frees 24 h after the first request.
    expect(limitHeaders(refused)).toEqual({
      limit: '10',
      remaining: '5',
      reset: String(clock.seconds(start + 950_000 + MINUTE_MS)),
      retryAfter: String((start + DAY_MS - clock.ms) / 1000),
    });
    clock.advance(start + DAY_MS - 1 - clock.ms); // crosses midnight UTC on the way: nothing resets
    expect((await t.graphql(GQL, {}, { key })).status).toBe(429);
    clock.advance(1);
    expect((await t.graphql(GQL, {}, { key })).status).toBe(200);
    expect((await t.rest(REST, { key })).status).toBe(429);
    clock.advance(10_000);
    expect((await t.rest(REST, { key })).status).toBe(200);
  });

  it('50 concurrent requests of one key: exactly its 10 a minute pass, on whichever store the app uses', async () => {
    const key = await newKey('free');
    const results = await Promise.all(Array.from({ length: 50 }, (_v, i) => (i % 2 ? t.graphql(GQL, {}, { key }) : t.rest(REST, { key }))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(40);
  });

  it('the rateLimit field reports tier, limits, remaining and resets after this request is counted', async () => {
    const key = await newKey('free');
    const start = clock.ms;
    await t.rest(REST, { key });
    clock.advance(5000);
    const res = await t.graphql(
      '{ rateLimit { tier perMinute { limit used remaining windowSeconds resetAt } perDay { limit remaining } venueDetailsPerDay { limit remaining resetAt } venueInquiriesPerDay { limit remaining } vendorInquiriesPerDay { limit remaining } } }',
      {},
      { key },
    );
    expect(res.body.data.rateLimit, context(res)).toEqual({
      tier: 'FREE',
      perMinute: { limit: 10, used: 2, remaining: 8, windowSeconds: 60, resetAt: clock.seconds(start + MINUTE_MS) },
      perDay: { limit: 100, remaining: 98 },
      venueDetailsPerDay: { limit: 20, remaining: 20, resetAt: null },
      venueInquiriesPerDay: { limit: 5, remaining: 5 },
      vendorInquiriesPerDay: { limit: 5, remaining: 5 },
    });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('8');
  });
});

describe('keyless requests and invalid keys (§8.4, §8.5)', () => {
  it('the description document, GraphiQL and a missing-key 401 count against the client IP: 400 a minute', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.7' };
    const openapi = await t.rest('/api/v1/openapi.json', { key: null, headers: ip });
    expect(openapi.status).toBe(200);
    expect(limitHeaders(openapi)).toMatchObject({ limit: '400', remaining: '399', retryAfter: null });
    const missing = await t.rest(REST, { key: null, headers: ip });
    expectRestError(missing, 401, 'missing_api_key');
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('398');
    const gql = await t.graphql(GQL, {}, { key: null, headers: ip });
    expect(gql.status).toBe(401);
    expect(gql.headers.get('x-ratelimit-limit')).toBe('400');
    const page = await t.app.fetch(new Request(`${BASE_URL}/graphql`, { headers: { accept: 'text/html', ...ip } }));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-ratelimit-remaining')).toBe('396');
    await page.text();

    const statuses: number[] = [];
    for (let i = 0; i < 397; i++) statuses.push((await t.rest('/api/v1/openapi.json', { key: null, headers: ip })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(396);
    const refused = await t.rest(REST, { key: null, headers: ip });
    expectRestError(refused, 429, 'rate_limit_exceeded');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('400');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another client IP has its own allowance; a key is never held back by its IP.
    expect((await t.rest('/api/v1/openapi.json', { key: null, headers: { 'x-forwarded-for': '203.0.113.8' } })).status).toBe(200);
    expect((await t.rest(REST, { key: await newKey('pro'), headers: ip })).status).toBe(200);
    clock.advance(MINUTE_MS);
    expect((await t.rest('/api/v1/openapi.json', { key: null, headers: ip })).status).toBe(200);
  });

  it('an invalid or revoked key gets 401 with no rate limit headers, and counts nowhere', async () => {
    const key = await newKey('free');
    for (const bad of [`${LIVE_KEY_PREFIX}${'B'.repeat(32)}`, key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a')]) {
      for (let i = 0; i < 12; i++) {
        const res = i % 2 ? await t.graphql(GQL, {}, { key: bad }) : await t.rest(REST, { key: bad });
        expect(res.status).toBe(401);
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
          expect(res.headers.get(name)).toBeNull();
      }
    }
    expect((await t.rest(REST, { key })).headers.get('x-ratelimit-remaining')).toBe('9');
  });
});
