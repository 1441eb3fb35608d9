// The response cache (issue 13): shared catalogue reads answered again without executing, on REST, GraphQL and the
// assistant tools alike; never on the key, never past a limit, never for per-key answers, errors or inquiries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { DAY_MS, SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { testClock } from '../limits/clock.js';
import { targets, validBody } from '../inquiries/support.js';
import { RouteAnswer } from '../../src/rest/adapter.js';

const clock = testClock('2026-06-01T10:00:00.000Z');
let generation = 0;
let t: TestApp;
let slug: string;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, limits: 'spec', responseCache: { ttlSeconds: 300 }, catalogueGeneration: () => generation });
  slug = (await t.rest('/api/v1/venues?state=texas&limit=1')).body.data[0].slug;
});
afterAll(() => t.close());

const withoutRequestId = (text: string) => text.replace(/"request_id":"[^"]+"/, '');
const SEARCH = `query Cards($state: String) { venues(state: $state, first: 3) { totalCount nodes { slug name pricing { currency startingTotal { amount } } } } }`;

describe('REST: a repeated catalogue read is a hit', () => {
  it('MISS then HIT with the same body and ETag, and the hit runs only the key lookup', async () => {
    const path = '/api/v1/venues?state=oregon&limit=4';
    const first = await t.rest(path);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('age')).toBeNull();
    let second!: Awaited<ReturnType<TestApp['rest']>>;
    const statements = await t.statements(async () => {
      second = await t.rest(path);
    });
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('age')).toBe('0');
    expect(withoutRequestId(second.text)).toBe(withoutRequestId(first.text));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    // The key lookup only: the page, its photos and total_count were not read again.
    expect(statements).toBe(1);
  });

  it('is shared by every key, and every key is still counted (X-RateLimit-Remaining falls on hits)', async () => {
    const path = '/api/v1/venues?state=ohio&limit=2';
    await t.rest(path);
    const other = (await createApiKey({ tier: 'free' }, t.db)).key;
    const a = await t.rest(path, { key: other });
    const b = await t.rest(path, { key: other });
    expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    expect(Number(b.headers.get('x-ratelimit-remaining'))).toBe(Number(a.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('If-None-Match on a hit is a 304 that still says HIT', async () => {
    const path = '/api/v1/vendors?category=photography&limit=3';
    const first = await t.rest(path);
    const again = await t.rest(path, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-cache')).toBe('HIT');
  });

  it('Age counts on the app clock, and the answer expires after the TTL (300 s)', async () => {
    const path = '/api/v1/venues?state=florida&limit=2';
    await t.rest(path);
    clock.advance(299_000);
    const aged = await t.rest(path);
    expect(aged.headers.get('x-cache')).toBe('HIT');
    expect(aged.headers.get('age')).toBe('299');
    clock.advance(2_000);
    expect((await t.rest(path)).headers.get('x-cache')).toBe('MISS');
  });

  it('a catalogue write (a new generation) and a new UTC day are misses', async () => {
    const path = '/api/v1/venues?state=georgia&limit=2';
    await t.rest(path);
    expect((await t.rest(path)).headers.get('x-cache')).toBe('HIT');
    generation++;
    expect((await t.rest(path)).headers.get('x-cache')).toBe('MISS');
    expect((await t.rest(path)).headers.get('x-cache')).toBe('HIT');
    clock.advance(DAY_MS - (clock.ms % DAY_MS) + 1_000); // just past midnight UTC
    expect((await t.rest(path)).headers.get('x-cache')).toBe('MISS');
  });

  it('errors are never kept: a second venue_not_found executes again', async () => {
    const missing = '/api/v1/venues/no-such-venue%2Fanywhere';
    expectRestError(await t.rest(missing), 404, 'venue_not_found');
    const again = await t.rest(missing);
    expectRestError(again, 404, 'venue_not_found');
    expect(again.headers.get('x-cache')).toBeNull();
  });

  it('inquiries are never cached', async () => {
    const body = JSON.stringify(validBody('venue', await targets(t)));
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-idempotency-key': 'cache-test-1' }, body };
    const first = await t.rest('/api/v1/inquiries/venue', init);
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('x-cache')).toBeNull();
  });
});

describe('venue detail: a hit counts the lookup again (§8 row 3 cannot be sidestepped)', () => {
  it('REST: MISS, then HITs while lookups remain, then 429 venue_detail_rate_limit_exceeded', async () => {
    const key = (await createApiKey({ tier: 'free' }, t.db)).key;
    const path = `/api/v1/venues/${encodeURIComponent(slug)}`;
    const outcomes: Array<string | null> = [];
    for (let i = 0; i < SPEC_POLICY.venueDetailPerDay; i++) {
      clock.advance(7_000); // under the per-minute burst, well inside the TTL
      const res = await t.rest(path, { key });
      expect(res.status, res.text).toBe(200);
      outcomes.push(res.headers.get('x-cache'));
    }
    expect(outcomes.slice(1).every((o) => o === 'HIT')).toBe(true);
    clock.advance(7_000);
    const refused = await t.rest(path, { key });
    expectRestError(refused, 429, 'venue_detail_rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('GraphQL: the same, as a field error with the other fields kept', async () => {
    const key = (await createApiKey({ tier: 'free' }, t.db)).key;
    const query = `query Detail($slug: String!) { venue(slug: $slug) { slug name } vendorCategories { slug } }`;
    for (let i = 0; i < SPEC_POLICY.venueDetailPerDay; i++) {
      clock.advance(7_000);
      const res = await t.graphql(query, { slug }, { key });
      expect(res.body.errors, res.text).toBeUndefined();
      if (i > 0) expect(res.headers.get('x-cache')).toBe('HIT');
    }
    clock.advance(7_000);
    const refused = await t.graphql(query, { slug }, { key });
    expect(refused.status).toBe(200);
    expect(refused.body.data.venue).toBeNull();
    expect(refused.body.data.vendorCategories.length).toBeGreaterThan(0);
    expectGraphQLError(refused, 'venue_detail_rate_limit_exceeded');
    expect(refused.headers.get('x-cache')).toBe('MISS');
  });
});

describe('GraphQL', () => {
  it('MISS then HIT for the same document and variables; other variables miss; a hit runs only the key lookup', async () => {
    const first = await t.graphql(SEARCH, { state: 'texas' });
    expect(first.headers.get('x-cache')).toBe('MISS');
    let second!: Awaited<ReturnType<TestApp['graphql']>>;
    const statements = await t.statements(async () => {
      second = await t.graphql(SEARCH, { state: 'texas' });
    });
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.text).toBe(first.text);
    expect(statements).toBe(1);
    expect((await t.graphql(SEARCH, { state: 'maine' })).headers.get('x-cache')).toBe('MISS');
  });

  it('rateLimit is per key: an operation selecting it is never cached', async () => {
    const query = '{ rateLimit { perMinute { used } } vendorCategories { slug } }';
    const first = await t.graphql(query);
    const second = await t.graphql(query);
    expect(second.headers.get('x-cache')).toBeNull();
    expect(second.body.data.rateLimit.perMinute.used).toBe(first.body.data.rateLimit.perMinute.used + 1);
  });

  it('an answer with errors is not kept', async () => {
    const query = '{ vendor(slug: "no-such-vendor") { slug } }';
    await t.graphql(query);
    const again = await t.graphql(query);
    expect(again.body.errors?.[0]?.extensions?.code).toBe('vendor_not_found');
    expect(again.headers.get('x-cache')).toBe('MISS');
  });
});

describe('the assistant tools share the cache', () => {
  const call = (args: Record<string, unknown>) =>
    t.app.fetch(
      new Request(`${BASE_URL}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_venues', arguments: args } }),
      }),
    );
  const structured = async (answer: Response) => {
    const { request_id: _id, ...body } = (await answer.json()).result.structuredContent;
    return body;
  };

  it('a repeated tool call runs no SQL, and REST asking the same reads the entry the tool kept', async () => {
    const first = await call({ state: 'texas', limit: 7 });
    let second!: Response;
    expect(await t.statements(async () => (second = await call({ state: 'texas', limit: 7 })))).toBe(0);
    const body = await structured(first);
    expect(await structured(second)).toEqual(body);
    // One entry for both surfaces, in the form the tool keeps (its body), rendered for REST: the same bytes as a miss.
    const rest = await t.rest('/api/v1/venues?state=texas&limit=7');
    expect(rest.headers.get('x-cache')).toBe('HIT');
    const { request_id: _id, ...restBody } = rest.body;
    expect(restBody).toEqual(body);
    generation += 1;
    const computed = await t.rest('/api/v1/venues?state=texas&limit=7');
    expect(computed.headers.get('x-cache')).toBe('MISS');
    expect(withoutRequestId(computed.text)).toBe(withoutRequestId(rest.text));
    expect(computed.headers.get('etag')).toBe(rest.headers.get('etag'));
  });

  it('a tool call answering what REST already asked runs no SQL at all', async () => {
    await t.rest('/api/v1/venues?state=california&limit=5');
    const call5 = () => call({ state: 'california', limit: 5 });
    let answer!: Response;
    const statements = await t.statements(async () => {
      answer = await call5();
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('california');
    expect(statements).toBe(0);
  });
});

describe('the in-process bound (RESPONSE_CACHE_MAX_MB)', () => {
  it('counts the bytes an entry holds: an answer larger than the bound is never kept, a smaller one is', async () => {
    const bounded = await createTestApp({ limits: 'spec', responseCache: { ttlSeconds: 300, maxBytes: 20_000 } });
    try {
      const large = '/api/v1/venues?limit=50';
      const [a, b] = [await bounded.rest(large), await bounded.rest(large)];
      expect(Buffer.byteLength(a.text)).toBeGreaterThan(20_000);
      expect([a.headers.get('x-cache'), b.headers.get('x-cache')]).toEqual(['MISS', 'MISS']);
      const small = '/api/v1/venues?state=oregon&limit=1';
      const [c, d] = [await bounded.rest(small), await bounded.rest(small)];
      expect(Buffer.byteLength(c.text)).toBeLessThan(10_000);
      expect([c.headers.get('x-cache'), d.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
      // A hit is the very answer: the same bytes (request_id aside) and ETag.
      expect(withoutRequestId(d.text)).toBe(withoutRequestId(c.text));
      expect(d.headers.get('etag')).toBe(c.headers.get('etag'));
    } finally {
      await bounded.close();
    }
  });

  it('a kept answer holds its own bytes, not a slab of the shared buffer pool the bound would not count', () => {
    // Bodies under 4 KB are encoded into slices of Node's 8 KB pool; a kept slice would hold the whole slab.
    const small = new RouteAnswer(200, { text: '{"data":[{"slug":"a"}]}' });
    expect(small.bytes.buffer.byteLength).toBeGreaterThan(small.bytes.byteLength);
    const kept = small.kept();
    expect(kept.bytes.buffer.byteLength).toBe(kept.bytes.byteLength);
    expect(kept.bytes.toString('utf8')).toBe('{"data":[{"slug":"a"}]}');
    expect(kept.etag).toBe(small.etag);
  });
});
