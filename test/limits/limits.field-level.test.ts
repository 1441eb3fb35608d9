// Limits that cannot be sidestepped: a request admitted by the read limit stays counted; field-level limits on
// GraphQL answer 200 with the other fields' data and a field error; one lead per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { DAY_MS, MINUTE_MS } from '../../src/limits/limits.policy.js';
import { camelBody, targets, validBody, type Targets } from '../inquiries/support.js';
import { testClock } from './clock.js';

const clock = testClock();
let t: TestApp;
let slugs: string[];
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, limits: 'spec' });
  slugs = (await t.rest('/api/v1/venues?limit=25')).body.data.map((v: { slug: string }) => v.slug);
  tg = await targets(t);
});
afterAll(() => t.close());

/** Uses up a key's 20 daily venue detail lookups, one request a minute apart from the read burst. */
async function useUpVenueDetails(key: string) {
  for (let i = 0; i < 20; i += 5) {
    const res = await t.graphql(
      `{ ${slugs
        .slice(i, i + 5)
        .map((s, j) => `v${j}: venue(slug: ${JSON.stringify(s)}) { slug }`)
        .join(' ')} }`,
      {},
      { key },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.errors).toBeUndefined();
    clock.advance(MINUTE_MS);
  }
}

const leadCount = () => t.db.prisma.inquiry.count();

describe('a request admitted by the read limit stays counted (no refunds)', () => {
  it('GraphQL reads with a refused venue(slug) inside still use the burst: the 11th request of a Free key in a minute is 429', async () => {
    const key = (await createApiKey({ tier: 'free' }, t.db)).key;
    await useUpVenueDetails(key);
    clock.advance(MINUTE_MS);
    const query = `{ venues(first: 100) { totalCount nodes { slug } } v: venue(slug: ${JSON.stringify(slugs[0])}) { slug } }`;
    for (let i = 1; i <= 10; i++) {
      const res = await t.graphql(query, {}, { key });
      // 200 with the other field's data and a field error for the refused lookup.
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.venues.nodes).toHaveLength(100);
      expect(res.body.data.v).toBeNull();
      expectGraphQLError(res, 'venue_detail_rate_limit_exceeded');
      expect(res.body.errors[0].path).toEqual(['v']);
      expect(res.body.errors[0].extensions.status).toBe(429);
      expect(res.body.errors[0].extensions.retryAfter).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
    }
    const eleventh = await t.graphql(query, {}, { key });
    expect(eleventh.status).toBe(429);
    expectGraphQLError(eleventh, 'rate_limit_exceeded');
    expect(eleventh.body.data ?? null).toBeNull();
    expect(eleventh.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('REST venue detail refused by its own limit is 429 with Retry-After and still counts as a read', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    await useUpVenueDetails(key);
    clock.advance(MINUTE_MS);
    const first = await t.rest(`/api/v1/venues/${encodeURIComponent(slugs[21])}`, { key });
    expectRestError(first, 429, 'venue_detail_rate_limit_exceeded');
    expect(Number(first.headers.get('retry-after'))).toBe(Math.ceil((DAY_MS - 5 * MINUTE_MS) / 1000));
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    const second = await t.rest(`/api/v1/venues/${encodeURIComponent(slugs[22])}`, { key });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('58');
  });
});

const VENUE_MUTATION = (aliases: string[]) =>
  `mutation($input: VenueInquiryInput!) { ${aliases.map((a) => `${a}: createVenueInquiry(input: $input) { inquiryId }`).join(' ')} }`;

describe('one lead per request on GraphQL (refused before any resolver runs)', () => {
  it('7 aliased createVenueInquiry fields: 400 invalid_parameters, no lead written, no inquiry slot used', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    const before = await leadCount();
    const aliases = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const res = await t.graphql(VENUE_MUTATION(aliases), { input: camelBody(validBody('venue', tg)) }, { key });
    expect(res.status, res.text).toBe(400);
    expectGraphQLError(res, 'invalid_parameters', 'mutation');
    expect(res.body.errors[0].message).toContain('7 lead-creating fields');
    expect(res.body.data ?? null).toBeNull();
    expect(await leadCount()).toBe(before);
    const status = await t.graphql('{ rateLimit { venueInquiriesPerDay { used } } }', {}, { key });
    expect(status.body.data.rateLimit.venueInquiriesPerDay.used).toBe(0);
  });

  it('a venue and a vendor inquiry together, or two through fragments, are refused the same way', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    const before = await leadCount();
    const mixed = await t.graphql(
      'mutation($v: VenueInquiryInput!, $w: VendorInquiryInput!) { createVenueInquiry(input: $v) { inquiryId } createVendorInquiry(input: $w) { inquiryId } }',
      { v: camelBody(validBody('venue', tg)), w: camelBody(validBody('vendor', tg)) },
      { key },
    );
    expect(mixed.status).toBe(400);
    expectGraphQLError(mixed, 'invalid_parameters', 'mutation');
    const fragments = await t.graphql(
      'mutation($v: VenueInquiryInput!) { ...A ... on Mutation { b: createVenueInquiry(input: $v) { inquiryId } } } fragment A on Mutation { a: createVenueInquiry(input: $v) { inquiryId } }',
      { v: camelBody(validBody('venue', tg)) },
      { key },
    );
    expect(fragments.status).toBe(400);
    expectGraphQLError(fragments, 'invalid_parameters', 'mutation');
    expect(await leadCount()).toBe(before);
  });

  it('one inquiry per request works; the 6th of a day is a field error with data null and nothing written, HTTP 200', async () => {
    const key = (await createApiKey({ tier: 'pro' }, t.db)).key;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.graphql(VENUE_MUTATION(['lead']), { input: camelBody(validBody('venue', tg, { guest_name: `Guest ${i}` })) }, { key });
      expect(res.status, res.text).toBe(200);
      ids.push(res.body.data.lead.inquiryId);
    }
    expect(new Set(ids).size).toBe(5);
    const before = await leadCount();
    const sixth = await t.graphql(VENUE_MUTATION(['lead']), { input: camelBody(validBody('venue', tg, { guest_name: 'Guest 6' })) }, { key });
    expect(sixth.status, sixth.text).toBe(200);
    expectGraphQLError(sixth, 'inquiry_rate_limit_exceeded');
    expect(sixth.body.errors[0].extensions.status).toBe(429);
    expect(sixth.body.errors[0].extensions.retryAfter).toBeGreaterThanOrEqual(1);
    expect(sixth.body.data).toBeNull();
    expect(await leadCount()).toBe(before);
  });
});
