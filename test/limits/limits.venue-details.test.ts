// §8 row 3 over a real socket: a venue detail lookup is counted whatever the way in. REST's detail route and
// venue(slug) count one each; a venues page or nodes(ids:) carrying detail-only fields (§2.3 minus §2.2) counts one per
// venue, and an answer that would pass the day's 20 is refused whole, 429 venue_detail_rate_limit_exceeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { MINUTE_MS, SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { listenApp } from '../support/processes.js';
import { testClock } from './clock.js';

const clock = testClock();
const FREE = { perMinute: 1_000, perDay: 100_000 };
let t: TestApp;
let base: string;
let close: () => Promise<void>;
let slugs: string[];
let ids: string[];

beforeAll(async () => {
  // The spec's detail allowance, with reads out of the way (this file is about lookups, not the burst).
  t = await createTestApp({
    now: clock.now,
    limits: { ...SPEC_POLICY, requests: { free: FREE, pro: FREE, partner: FREE } },
  });
  ({ base, close } = await listenApp(t.app));
  const page = await t.graphql('{ venues(first: 30) { nodes { id slug } } }');
  slugs = page.body.data.venues.nodes.map((v: { slug: string }) => v.slug);
  ids = page.body.data.venues.nodes.map((v: { id: string }) => v.id);
});
afterAll(async () => {
  await close();
  await t.close();
});

const freeKey = async () => (await createApiKey({ tier: 'free' }, t.db)).key;

async function graphql(key: string, query: string, accept = 'application/json') {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function detailsUsed(key: string): Promise<number> {
  const res = await graphql(key, '{ rateLimit { venueDetailsPerDay { used } } }');
  return res.body.data.rateLimit.venueDetailsPerDay.used;
}

describe('venue detail lookups through lists (§8 row 3)', () => {
  it('a page without detail fields costs nothing; with any detail field, one lookup per venue answered', async () => {
    const key = await freeKey();
    expect((await graphql(key, '{ venues(first: 15) { nodes { slug name amenities pricing { currency } } } }')).status).toBe(200);
    expect(await detailsUsed(key)).toBe(0);
    for (const field of ['description', 'accommodates', 'categories', 'photos { url }', 'totalPhotos', 'testimonials { rating }']) {
      const key2 = await freeKey();
      const res = await graphql(key2, `{ venues(first: 3) { nodes { slug ${field} } } }`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await detailsUsed(key2), field).toBe(3);
    }
    // Several detail fields of one venue, or the same venue twice through aliases of one list, cost one lookup each venue.
    const res = await graphql(
      key,
      '{ venues(first: 4) { nodes { description photos { url } testimonials { rating } } edges { node { totalPhotos } } } }',
    );
    expect(res.status).toBe(200);
    expect(await detailsUsed(key)).toBe(4);
  });

  it('venues(first: 100) with descriptions is refused whole for a key with 20 a day, and costs nothing', async () => {
    const key = await freeKey();
    const res = await graphql(key, '{ venues(first: 25) { nodes { slug description } } }');
    expect(res.status).toBe(429);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'venue_detail_rate_limit_exceeded', status: 429 });
    expect(res.body.errors[0].message).toMatch(/details of 25 venues.*20 in 24 hours/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await detailsUsed(key)).toBe(0);
  });

  it('what is left decides: 15 used, a page of 6 is refused whole and a page of 5 passes; REST detail is then refused too', async () => {
    const key = await freeKey();
    expect((await graphql(key, '{ venues(first: 15) { nodes { description } } }')).status).toBe(200);
    const six = await graphql(key, '{ venues(first: 6) { nodes { description } } }');
    expect(six.status).toBe(429);
    expect(six.body.errors[0].message).toMatch(/details of 6 venues; 5 of the 20/);
    expect(await detailsUsed(key)).toBe(15);
    const five = await graphql(key, '{ venues(first: 5) { nodes { description } } }');
    expect(five.status).toBe(200);
    expect(five.body.data.venues.nodes).toHaveLength(5);
    const rest = await fetch(`${base}/api/v1/venues/${encodeURIComponent(slugs[0])}`, { headers: { authorization: `Bearer ${key}` } });
    expect(rest.status).toBe(429);
    expect(((await rest.json()) as any).error.code).toBe('venue_detail_rate_limit_exceeded');
    // The list item's own fields stay free.
    expect((await graphql(key, '{ venues(first: 100) { nodes { slug seoDescription heroImage } } }')).status).toBe(200);
    clock.advance(MINUTE_MS);
  });

  it('nodes(ids:) and node(id:) count the venues whose details they answer; venue(slug) counts once, not twice', async () => {
    const key = await freeKey();
    const list = JSON.stringify(ids.slice(0, 3));
    const nodes = await graphql(key, `{ nodes(ids: ${list}) { ... on Venue { slug description } } }`);
    expect(nodes.status).toBe(200);
    expect(nodes.body.data.nodes).toHaveLength(3);
    expect(await detailsUsed(key)).toBe(3);
    await graphql(key, `{ node(id: ${JSON.stringify(ids[3])}) { ... on Venue { photos { url } } } }`);
    expect(await detailsUsed(key)).toBe(4);
    // venue(slug) counts itself before it reads; its detail fields add nothing.
    await graphql(key, `{ venue(slug: ${JSON.stringify(slugs[5])}) { description photos { url } testimonials { rating } } }`);
    expect(await detailsUsed(key)).toBe(5);
    // nodes(ids:) past the allowance is refused whole.
    const many = JSON.stringify(ids.slice(0, 16));
    const refused = await graphql(key, `{ nodes(ids: ${many}) { ... on Venue { description } } }`);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('venue_detail_rate_limit_exceeded');
    expect(await detailsUsed(key)).toBe(5);
  });

  it('the schema says which fields count', async () => {
    const res = await graphql(await freeKey(), '{ __type(name: "Venue") { fields { name description } } }');
    const described = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string; description: string }) => [f.name, f.description]));
    for (const name of ['description', 'accommodates', 'categories', 'photos', 'totalPhotos', 'testimonials']) {
      expect(described[name], name).toMatch(/counts as a venue detail lookup/);
    }
    for (const name of ['slug', 'name', 'seoDescription', 'amenities', 'pricing']) expect(described[name], name).not.toMatch(/detail lookup/);
  });
});

describe('venue detail lookups of a cached answer (§8 row 3 with the response cache on)', () => {
  it('a hit counts its venues again, and is refused whole when they do not fit', async () => {
    const cached = await createTestApp({
      now: clock.now,
      limits: { ...SPEC_POLICY, requests: { free: FREE, pro: FREE, partner: FREE } },
      responseCache: { ttlSeconds: 300 },
    });
    const server = await listenApp(cached.app);
    try {
      const key = (await createApiKey({ tier: 'free' }, cached.db)).key;
      const ask = () =>
        fetch(`${server.base}/graphql?query=${encodeURIComponent('{ venues(first: 8) { nodes { slug description } } }')}`, {
          headers: { authorization: `Bearer ${key}` },
        });
      const used = async () =>
        (await cached.graphql('{ rateLimit { venueDetailsPerDay { used } } }', {}, { key })).body.data.rateLimit.venueDetailsPerDay.used;
      const first = await ask();
      expect(first.status).toBe(200);
      expect(first.headers.get('x-cache')).toBe('MISS');
      expect(await used()).toBe(8);
      const second = await ask();
      expect(second.status).toBe(200);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(await used()).toBe(16);
      // 4 left: the cached answer of 8 does not fit, and neither does the computed one.
      const third = await ask();
      expect(third.status).toBe(429);
      expect(((await third.json()) as any).errors[0].extensions.code).toBe('venue_detail_rate_limit_exceeded');
      expect(await used()).toBe(16);
    } finally {
      await server.close();
      await cached.close();
    }
  });
});
