import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { DAY_MS, MINUTE_MS } from '../../src/limits/limits.policy.js';
import { GRAPHQL_BOUNDS, boundsViolation } from '../../src/graphql/complexity.js';
import { testClock } from './clock.js';

const clock = testClock();
let t: TestApp;
let slugs: string[];
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, limits: 'spec' });
  slugs = (await t.rest('/api/v1/venues?limit=30')).body.data.map((v: { slug: string }) => v.slug);
});
afterAll(() => t.close());

const aliased = (list: string[]) => `{ ${list.map((s, i) => `v${i}: venue(slug: ${JSON.stringify(s)}) { slug }`).join(' ')} }`;

describe('venue detail lookups (§8 row 3, §8.2)', () => {
  it('20 a day for every tier, shared by REST and GraphQL, each aliased venue(slug) one lookup; apart from reads', async () => {
    const key = (await createApiKey({ tier: 'partner' }, t.db)).key;
    const start = clock.ms;
    for (let i = 0; i < 10; i++) expect((await t.rest(`/api/v1/venues/${encodeURIComponent(slugs[i])}`, { key })).status).toBe(200);
    clock.advance(MINUTE_MS);
    const ten = await t.graphql(aliased(slugs.slice(10, 20)), {}, { key });
    expect(ten.status).toBe(200);
    expect(Object.keys(ten.body.data)).toHaveLength(10);
    clock.advance(MINUTE_MS);

    const rest = await t.rest(`/api/v1/venues/${encodeURIComponent(slugs[20])}`, { key });
    expectRestError(rest, 429, 'venue_detail_rate_limit_exceeded');
    expect(rest.body.error.hint).toBeTruthy();
    expect(rest.headers.get('retry-after')).toBe(String((start + DAY_MS - clock.ms) / 1000));
    // Admitted by the read limit, so counted as a read even though its lookup was refused (no refunds).
    expect(rest.headers.get('x-ratelimit-limit')).toBe('60');
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('59');

    const gql = await t.graphql(aliased(slugs.slice(20, 23)), {}, { key });
    // A field-level limit is a field error per refused field: HTTP 200, the seconds to wait in extensions.
    expect(gql.status).toBe(200);
    expectGraphQLError(gql, 'venue_detail_rate_limit_exceeded');
    expect(gql.body.errors).toHaveLength(3);
    expect(gql.body.data).toEqual({ v0: null, v1: null, v2: null });
    expect(String(gql.body.errors[0].extensions.retryAfter)).toBe(rest.headers.get('retry-after'));

    // Reads are counted apart: searches still pass.
    expect((await t.rest('/api/v1/venues?limit=1', { key })).status).toBe(200);
    const status = await t.graphql('{ rateLimit { venueDetailsPerDay { used remaining resetAt } } }', {}, { key });
    expect(status.body.data.rateLimit.venueDetailsPerDay).toEqual({ used: 20, remaining: 0, resetAt: clock.seconds(start + DAY_MS) });

    clock.advance(start + DAY_MS - clock.ms);
    // The 10 REST lookups were made at `start`: all 10 free at once at start + 24 h, the other 10 a minute later.
    expect((await t.graphql(aliased(slugs.slice(20, 30)), {}, { key })).status).toBe(200);
    expectGraphQLError(await t.graphql(aliased(slugs.slice(0, 1)), {}, { key }), 'venue_detail_rate_limit_exceeded');
  });

  it('50 concurrent lookups at the limit let exactly 20 through', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    const results = await Promise.all(Array.from({ length: 50 }, (_v, i) => t.rest(`/api/v1/venues/${encodeURIComponent(slugs[i % 30])}`, { key })));
    // 60 a minute leaves room for all 50 requests; only the lookups are short.
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429 && r.body.error.code === 'venue_detail_rate_limit_exceeded')).toHaveLength(30);
  });
});

describe('GraphQL request bounds (before any resolver runs)', () => {
  const expectBound = (res: { status: number; body: any; text: string; headers: Headers }, bound: string, max: number) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body.data ?? null).toBeNull();
    const error = res.body.errors[0];
    expect(error.message).toContain(`${bound} ${max}`);
    expect(error.extensions).toMatchObject({ bound, max, code: 'query_too_complex', type: 'invalid_request_error', status: 400 });
    expect(error.extensions.requestId).toBe(res.headers.get('x-request-id'));
  };

  it(`depth ${GRAPHQL_BOUNDS.maxDepth} (no query of today's schema reaches it: its deepest path is 6)`, async () => {
    const ok = await t.graphql('{ venues(first: 1) { edges { node { pricing { startingTotal { amount } } } } } }');
    expect(ok.status, ok.text).toBe(200);
    expect(boundsViolation({ depth: GRAPHQL_BOUNDS.maxDepth, complexity: 1 })).toBeNull();
    const error = boundsViolation({ depth: GRAPHQL_BOUNDS.maxDepth + 1, complexity: 1 })!;
    expect(error.message).toContain(`maxDepth ${GRAPHQL_BOUNDS.maxDepth}`);
    expect(error.originalError).toMatchObject({
      code: 'query_too_complex',
      details: { bound: 'maxDepth', max: GRAPHQL_BOUNDS.maxDepth, actual: GRAPHQL_BOUNDS.maxDepth + 1 },
    });
  });

  it(`aliases ${GRAPHQL_BOUNDS.maxAliases}`, async () => {
    const fields = (n: number) => `{ ${Array.from({ length: n }, (_v, i) => `a${i}: venues(first: 1) { totalCount }`).join(' ')} }`;
    expect((await t.graphql(fields(GRAPHQL_BOUNDS.maxAliases))).status).toBe(200);
    expectBound(await t.graphql(fields(GRAPHQL_BOUNDS.maxAliases + 1)), 'maxAliases', GRAPHQL_BOUNDS.maxAliases);
  });

  it(`list-aware cost ${GRAPHQL_BOUNDS.maxCost}: first multiplies`, async () => {
    const page = (first: number) =>
      `venues(first: ${first}) { nodes { slug name city state country propertyType venueType latitude longitude capacityMin capacityMax bedrooms beds bathrooms gatheringSpaces priceRange pricing { priceUnit currency minNights weekdayBase weekendBase extraNight startingTotal { amount nights rate includesFees } rateDate } heroImage seoDescription amenities url description accommodates categories photos { url category isFeatured position } totalPhotos testimonials { guestName rating review eventDate } } }`;
    // Within the cost bound; its 100 venues' detail fields pass a key's 20 daily lookups (§8 row 3): refused whole.
    const one = await t.graphql(`{ ${page(100)} }`);
    expect(one.status, one.text).toBe(429);
    expect(one.body.errors[0].extensions.code).toBe('venue_detail_rate_limit_exceeded');
    const heavy = `{ a: ${page(100)} b: ${page(100)} c: ${page(100)} }`;
    const res = await t.graphql(heavy);
    expectBound(res, 'maxCost', GRAPHQL_BOUNDS.maxCost);
    expect(res.body.errors[0].extensions.actual).toBeGreaterThan(GRAPHQL_BOUNDS.maxCost);
  });

  it('the cost of one document is measured for its variables and operation each time, not as first seen', async () => {
    // The measure is remembered per document, operation and variables (complexity.ts): a light run of a document must
    // not let a heavy run of the same text through, nor the reverse.
    const fields =
      'slug name city state country propertyType venueType latitude longitude capacityMin capacityMax bedrooms beds bathrooms gatheringSpaces priceRange pricing { priceUnit currency minNights weekdayBase weekendBase extraNight startingTotal { amount nights rate includesFees } rateDate } heroImage seoDescription amenities url description accommodates categories photos { url category isFeatured position } totalPhotos testimonials { guestName rating review eventDate }';
    const page = (name: string) => `${name}: venues(first: $first) { nodes { ${fields} } }`;
    const heavy = `query pages($first: Int) { ${page('a')} ${page('b')} ${page('c')} }`;
    for (let round = 0; round < 2; round++) {
      const light = await t.graphql(heavy, { first: 2 });
      expect(light.status, light.text).toBe(200);
      expect(light.body.data.a.nodes).toHaveLength(2);
      expectBound(await t.graphql(heavy, { first: 100 }), 'maxCost', GRAPHQL_BOUNDS.maxCost);
    }
    const twoOperations = `query small { venues(first: 1) { totalCount } } query large { ${heavy.slice(heavy.indexOf('{') + 1, -1).replaceAll('$first', '100')} }`;
    const run = async (operationName: string) =>
      t.app.fetch(
        new Request('http://localhost/graphql', {
          method: 'POST',
          headers: { authorization: `Bearer ${t.keys.pro}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: twoOperations, operationName }),
        }),
      );
    for (const operationName of ['small', 'large', 'small', 'large']) {
      const res = await run(operationName);
      expect(res.status, operationName).toBe(operationName === 'small' ? 200 : 400);
      if (operationName === 'large') expect((await res.json()).errors[0].extensions).toMatchObject({ bound: 'maxCost' });
      else expect((await res.json()).data.venues.totalCount).toBeGreaterThan(0);
    }
  });

  it(`tokens ${GRAPHQL_BOUNDS.maxTokens}`, async () => {
    const huge = `{ venues(first: 1) { ${'totalCount '.repeat(GRAPHQL_BOUNDS.maxTokens)} } }`;
    const res = await t.graphql(huge);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(new RegExp(`more th\\w+ ${GRAPHQL_BOUNDS.maxTokens} tokens`));
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'graphql_parse_failed', status: 400 });
  });
});
