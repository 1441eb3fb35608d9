// A key's row is trusted for a lease once read (src/auth/key-lease.ts; main.ts turns it on with API_KEY_LEASE_MS):
// one lookup per lease instead of one per request, the secret still compared on every request, and a revocation
// through the keys CLI refused from the next request once the command returns. Time is an injected monotonic clock.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { LIVE_KEY_PREFIX, createApiKey, lookupPrefixOf, revokeApiKey, verifyApiKey, type KeyRow } from '../../src/auth/api-keys.service.js';
import { createKeyLease } from '../../src/auth/key-lease.js';
import { runKeysCli } from '../../src/cli/keys.js';

const LEASE_MS = 1_000;
const REST = '/api/v1/vendors/categories';
const GQL = '{ vendorCategories { slug } }';

let t: TestApp;
let clockMs = 0;
beforeAll(async () => {
  t = await createTestApp({ keyLease: { ms: LEASE_MS, clock: () => clockMs } });
});
afterAll(() => t.close());

/** The key lookup among a request's statements: the route's own statement is the same every time. */
async function statementsOf(request: () => Promise<{ status: number }>): Promise<number> {
  let status = 0;
  const count = await t.statements(async () => {
    status = (await request()).status;
  });
  expect(status).toBe(200);
  return count;
}

describe('API key lease', () => {
  it('reads a key once per lease on both surfaces, and again once the lease has ended', async () => {
    const key = t.keys.free;
    clockMs += 10 * LEASE_MS;
    const rest = () => t.rest(REST, { key });
    const gql = () => t.graphql(GQL, {}, { key });
    const first = await statementsOf(rest);
    // The route reads one statement of its own; the first request also reads the key.
    expect(first).toBe(2);
    clockMs += LEASE_MS - 1;
    expect(await statementsOf(rest)).toBe(first - 1);
    expect(await statementsOf(gql)).toBe(first - 1);
    clockMs += 1;
    expect(await statementsOf(gql)).toBe(first);
    expect(await statementsOf(rest)).toBe(first - 1);
  });

  it('compares the presented secret on every request: a leased prefix with a wrong secret is 401 without rate limit headers', async () => {
    const key = t.keys.pro;
    expect((await t.rest(REST, { key })).status).toBe(200);
    const wrongSecret = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    const res = await t.rest(REST, { key: wrongSecret });
    expectRestError(res, 401, 'invalid_api_key');
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expectGraphQLError(await t.graphql(GQL, {}, { key: wrongSecret }), 'invalid_api_key');
    expect((await t.rest(REST, { key })).status).toBe(200);
  });

  it('keeps no miss: a key issued after a refused attempt works on its next request', async () => {
    const key = `${LIVE_KEY_PREFIX}${'Lease0123'.padEnd(32, 'x')}`;
    expectRestError(await t.rest(REST, { key }), 401, 'invalid_api_key');
    await t.db.prisma.apiKey.create({
      data: { prefix: lookupPrefixOf(key)!, hash: createHash('sha256').update(key).digest('hex'), tier: 'free', name: 'issued late' },
    });
    expect((await t.rest(REST, { key })).status).toBe(200);
    expect((await t.graphql(GQL, {}, { key })).status).toBe(200);
  });

  it('a revocation is refused from the next request once `keys revoke` returns: the command waits out the lease', async () => {
    const key = t.keys.partner;
    expect((await t.rest(REST, { key })).status).toBe(200);
    const events: string[] = [];
    const code = await runKeysCli(
      ['revoke', lookupPrefixOf(key)!],
      t.db.prisma,
      { out: (line) => events.push(`out ${line}`), err: (line) => events.push(`err ${line}`) },
      {
        leaseMs: LEASE_MS,
        wait: async (ms) => {
          // Committed, not yet reported: this node still trusts the row it read (the window the wait is for).
          expect((await t.rest(REST, { key })).status).toBe(200);
          events.push(`wait ${ms}`);
          clockMs += ms;
        },
      },
    );
    expect(code).toBe(0);
    expect(events).toEqual([`wait ${LEASE_MS}`, `err Revoked ${lookupPrefixOf(key)}: refused from the next request on.`]);
    expectRestError(await t.rest(REST, { key }), 401, 'invalid_api_key');
    expectGraphQLError(await t.graphql(GQL, {}, { key }), 'invalid_api_key');
  });

  it('a revocation read by the lease stays refused, whatever the clock does next', async () => {
    const { key } = await createApiKey({ tier: 'free' }, t.db);
    expect((await t.rest(REST, { key })).status).toBe(200);
    await revokeApiKey(lookupPrefixOf(key)!, t.db);
    clockMs += LEASE_MS;
    expectRestError(await t.rest(REST, { key }), 401, 'invalid_api_key');
    clockMs += LEASE_MS / 2;
    expectRestError(await t.rest(REST, { key }), 401, 'invalid_api_key');
  });
});

describe('createKeyLease', () => {
  it('dates a row from before its read was sent, so a slow read does not stretch the lease', async () => {
    let now = 0;
    let reads = 0;
    const lease = createKeyLease<string>({ ms: 1_000, clock: () => now });
    const slowRead = async () => {
      reads++;
      now += 600; // the database answered 600 ms after the read was sent
      return 'row';
    };
    expect(await lease.row('p', slowRead)).toBe('row');
    now = 999;
    expect(await lease.row('p', slowRead)).toBe('row');
    expect(reads).toBe(1);
    now = 1_000;
    await lease.row('p', slowRead);
    expect(reads).toBe(2);
  });

  it('keeps at most maxRows, dropping the least recently read', async () => {
    const reads: string[] = [];
    const lease = createKeyLease<string>({ ms: 1_000, clock: () => 0, maxRows: 2 });
    const read = (prefix: string) => async () => {
      reads.push(prefix);
      return prefix;
    };
    for (const prefix of ['a', 'b', 'a', 'c', 'a', 'b']) await lease.row(prefix, read(prefix));
    // a and b read; a held; c read, dropping a (read first); a read again, dropping b; b read again.
    expect(reads).toEqual(['a', 'b', 'c', 'a', 'b']);
  });

  it('reads every time with a lease of 0 ms', async () => {
    let reads = 0;
    const lease = createKeyLease<string>({ ms: 0, clock: () => 0 });
    for (let i = 0; i < 3; i++)
      await lease.row('p', async () => {
        reads++;
        return 'row';
      });
    expect(reads).toBe(3);
  });

  it('a leased row holds its hash in memory of its own, not a slab of the shared buffer pool', async () => {
    // Decoding hex into a pooled slice kept an 8 KB slab alive per leased key (thousands of keys: megabytes).
    const lease = createKeyLease<KeyRow>({ ms: LEASE_MS, clock: () => clockMs });
    const key = t.keys.free;
    expect(await verifyApiKey(key, { readRows: t.db.readRows, keyLease: lease })).not.toBeNull();
    const held = await lease.row(lookupPrefixOf(key)!, () => Promise.reject(new Error('the lease should hold the row')));
    expect(held!.hash.byteLength).toBe(32);
    expect(held!.hash.buffer.byteLength).toBe(32);
  });
});
