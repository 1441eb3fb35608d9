import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { LIVE_KEY_PREFIX, revokeApiKey, lookupPrefixOf } from '../../src/auth/api-keys.service.js';
import { isPlaceholderKey } from '../../src/auth/authenticate.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const REST = '/api/v1/venues?limit=1';
const GQL = '{ venues(first: 1) { totalCount } }';

describe('API keys (§5)', () => {
  it('have the live prefix and 32 base62 characters, and are stored only as a SHA-256 hash', async () => {
    for (const key of Object.values(t.keys)) expect(key).toMatch(new RegExp(`^${LIVE_KEY_PREFIX}[0-9A-Za-z]{32}$`));
    const rows = await t.db.prisma.apiKey.findMany();
    for (const row of rows) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      for (const key of Object.values(t.keys)) expect(JSON.stringify(row)).not.toContain(key.slice(LIVE_KEY_PREFIX.length + 8));
    }
  });

  it('are accepted as Authorization: Bearer or X-Service-Key on both surfaces', async () => {
    expect((await t.rest(REST, { key: null, headers: { authorization: `Bearer ${t.keys.free}` } })).status).toBe(200);
    expect((await t.rest(REST, { key: null, headers: { 'x-service-key': t.keys.free } })).status).toBe(200);
    expect((await t.graphql(GQL, {}, { key: null, headers: { 'x-service-key': t.keys.pro } })).body.data.venues.totalCount).toBeGreaterThan(0);
  });

  it('answer 401 missing_api_key without a key, on both surfaces', async () => {
    expectRestError(await t.rest(REST, { key: null }), 401, 'missing_api_key');
    const gql = await t.graphql(GQL, {}, { key: null });
    expect(gql.status).toBe(401);
    expectGraphQLError(gql, 'missing_api_key');
    expectRestError(await t.rest(REST, { key: null, headers: { authorization: 'Bearer ' } }), 401, 'missing_api_key');
  });

  it('answer 401 invalid_api_key alike for unknown, malformed and mismatched keys, with no rate limit headers', async () => {
    const unknown = `${LIVE_KEY_PREFIX}${'A'.repeat(32)}`;
    const wrongSecret = t.keys.free.slice(0, -1) + (t.keys.free.endsWith('a') ? 'b' : 'a');
    for (const key of [unknown, wrongSecret, 'sk_test_123', 'wv_live_short', `${t.keys.free}x`]) {
      const res = await t.rest(REST, { key });
      expectRestError(res, 401, 'invalid_api_key');
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      const gql = await t.graphql(GQL, {}, { key });
      expect(gql.status).toBe(401);
      expectGraphQLError(gql, 'invalid_api_key');
      expect([res.body.error.message, gql.body.errors[0].message]).toEqual(Array(2).fill('The API key is invalid or has been revoked.'));
    }
    const both = await t.rest(REST, { key: null, headers: { authorization: `Bearer ${t.keys.free}`, 'x-service-key': t.keys.pro } });
    expectRestError(both, 401, 'invalid_api_key');
  });

  it('answer a documentation placeholder 401 invalid_api_key saying the key is missing, on both surfaces and both headers', async () => {
    const message = 'The API key is missing: the value sent is a placeholder (such as YOUR_API_KEY), not a key.';
    for (const key of ['YOUR_API_KEY', '<API_KEY>', '$KEY', 'wv_live_...', 'your-key-here']) {
      for (const headers of [{ authorization: `Bearer ${key}` }, { 'x-service-key': key }] as Array<Record<string, string>>) {
        const res = await t.rest(REST, { key: null, headers });
        expectRestError(res, 401, 'invalid_api_key');
        expect(res.body.error.message, key).toBe(message);
        expect(res.body.error.hint).toBe('Replace the placeholder with your own key: Authorization: Bearer <API_KEY> or X-Service-Key: <API_KEY>.');
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
        const gql = await t.graphql(GQL, {}, { key: null, headers });
        expect(gql.status).toBe(401);
        expectGraphQLError(gql, 'invalid_api_key');
        expect(gql.body.errors[0].message, key).toBe(message);
      }
    }
  });

  it('take a placeholder for one only when it cannot be a key', () => {
    for (const key of ['YOUR_API_KEY', 'your_api_key', 'API_KEY', 'key', '<key>', '${WV_API_KEY}', 'wv_live_…', 'wv_live_xxxx']) {
      expect(isPlaceholderKey(key), key).toBe(true);
    }
    for (const key of [t.keys.free, `${LIVE_KEY_PREFIX}${'x'.repeat(32)}`, 'sk_test_123', 'wv_live_short', 'keys', 'Bearer']) {
      expect(isPlaceholderKey(key), key).toBe(false);
    }
  });

  it('stop working at once when revoked', async () => {
    const key = t.keys.pro;
    expect((await t.rest(REST, { key })).status).toBe(200);
    expect(await revokeApiKey(lookupPrefixOf(key)!, t.db)).toBe(true);
    expectRestError(await t.rest(REST, { key }), 401, 'invalid_api_key');
    expectGraphQLError(await t.graphql(GQL, {}, { key }), 'invalid_api_key');
  });

  it('never reach a log line', async () => {
    await t.rest(REST, { key: t.keys.free });
    await t.rest(REST, { key: `${LIVE_KEY_PREFIX}${'B'.repeat(32)}` });
    await t.graphql(GQL, {}, { key: t.keys.partner });
    const logs = t.logs.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(LIVE_KEY_PREFIX);
  });
});
