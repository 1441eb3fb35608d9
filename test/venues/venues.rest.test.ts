import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectRestError, type TestApp } from '../support/app.js';
import { taggedColumns } from '../../src/graphql/model-columns.js';
import { snakeCase } from '../../src/rest/route.js';

const LIST_FIELDS = [
  'slug',
  'name',
  'city',
  'state',
  'country',
  'property_type',
  'venue_type',
  'latitude',
  'longitude',
  'capacity_min',
  'capacity_max',
  'bedrooms',
  'beds',
  'bathrooms',
  'gathering_spaces',
  'price_range',
  'pricing',
  'hero_image',
  'seo_description',
  'amenities',
  'url',
].sort();
const PRICING_FIELDS = ['price_unit', 'currency', 'min_nights', 'weekday_base', 'weekend_base', 'extra_night', 'starting_total', 'rate_date'].sort();
const TODAY = new Date('2026-06-15T12:00:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

/** Every published venue matching `path`'s filters, read page by page through next_cursor. */
async function allPages(path: string) {
  const items: Array<{ slug: string; pricing: { currency: string; starting_total: { amount: number } | null } }> = [];
  let cursor: string | null = null;
  let total = -1;
  for (let page = 0; page < 100; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await t.rest(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    total = res.body.pagination.total_count;
    cursor = res.body.pagination.next_cursor;
    expect(res.body.pagination.has_more).toBe(cursor !== null);
    if (!cursor) break;
  }
  return { slugs: items.map((v) => v.slug), items, total };
}

describe('GET /api/v1/venues', () => {
  it('returns 20 published venues with every §2.2 field, cursor pagination and the request id', async () => {
    const res = await t.rest('/api/v1/venues');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    for (const v of res.body.data) {
      expect(Object.keys(v).sort()).toEqual(LIST_FIELDS);
      expect(Object.keys(v.pricing).sort()).toEqual(PRICING_FIELDS);
      expect(v.pricing.price_unit).toBe('per_stay');
      expect(v.url).toBe(`http://api.test/venues/${v.slug}`);
      expect(v.slug).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)+$/);
    }
    const published = await t.db.prisma.venue.count({ where: { published: true } });
    expect(res.body.pagination).toEqual({ has_more: true, next_cursor: expect.any(String), total_count: published });
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    const slugs = res.body.data.map((v: { slug: string }) => v.slug);
    expect(slugs).toEqual([...slugs].sort());
  });

  it('accepts limit 1 and 100 and refuses 0, 101 and non-integers naming limit', async () => {
    expect((await t.rest('/api/v1/venues?limit=1')).body.data).toHaveLength(1);
    expect((await t.rest('/api/v1/venues?limit=100')).body.data).toHaveLength(100);
    for (const bad of ['0', '101', '-1', '1.5', 'abc', '']) {
      expectRestError(await t.rest(`/api/v1/venues?limit=${bad}`), 400, 'invalid_parameters', 'limit');
    }
  });

  it('names every malformed or out-of-range parameter', async () => {
    const cases: Array<[string, string]> = [
      ['capacity_min=-1', 'capacity_min'],
      ['capacity_min=ten', 'capacity_min'],
      ['capacity_max=10001', 'capacity_max'],
      ['capacity_min=20&capacity_max=10', 'capacity_max'],
      ['bedrooms_min=-1', 'bedrooms_min'],
      ['bedrooms_min=2.5', 'bedrooms_min'],
      ['price_min=-1', 'price_min'],
      ['price_max=cheap', 'price_max'],
      ['price_min=900&price_max=100', 'price_max'],
      ['amenities=pool,<script>', 'amenities'],
      ['state=', 'state'],
      [`venue_type=${'x'.repeat(51)}`, 'venue_type'],
      ['colour=blue', 'colour'],
      ['state=texas&state=utah', 'state'],
    ];
    for (const [query, param] of cases) {
      const res = await t.rest(`/api/v1/venues?${query}`);
      expectRestError(res, 400, 'invalid_parameters', param);
      expect(res.body.error.message).toContain(param);
    }
    const both = await t.rest('/api/v1/venues?limit=0&capacity_min=-3');
    expect(both.body.error.message).toContain('limit');
    expect(both.body.error.message).toContain('capacity_min');
  });

  it('filters by state and city slugs', async () => {
    const { slugs, total } = await allPages('/api/v1/venues?state=california');
    const expected = await t.db.prisma.venue.count({ where: { published: true, stateSlug: 'california' } });
    expect(expected).toBeGreaterThan(0);
    expect(total).toBe(expected);
    expect(slugs).toHaveLength(expected);
    const anyCity = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, stateSlug: 'california' } });
    const res = await t.rest(`/api/v1/venues?city=${anyCity.citySlug}&limit=100`);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const v of res.body.data) expect(v.city).toBe(anyCity.city);
  });

  it('matches venue_type as a case-insensitive substring of the property type', async () => {
    const res = await t.rest('/api/v1/venues?venue_type=ESTATE&limit=100');
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const v of res.body.data) expect(v.property_type.toLowerCase()).toContain('estate');
    const expected = await t.db.prisma.venue.count({ where: { published: true, propertyType: { contains: 'estate', mode: 'insensitive' } } });
    expect(res.body.pagination.total_count).toBe(expected);
  });

  it('applies capacity, bedrooms and all-of amenities filters', async () => {
    const res = await t.rest('/api/v1/venues?capacity_min=20&capacity_max=40&bedrooms_min=8&amenities=pool,hot-tub&limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const v of res.body.data) {
      expect(v.capacity_max).toBeGreaterThanOrEqual(20);
      expect(v.capacity_max).toBeLessThanOrEqual(40);
      expect(v.bedrooms).toBeGreaterThanOrEqual(8);
      expect(v.amenities).toEqual(expect.arrayContaining(['pool', 'hot-tub']));
    }
  });

  it("compares price bounds with starting_total.amount in each venue's own currency and drops unpriced venues", async () => {
    const [min, max] = [5000, 9000];
    const { slugs } = await allPages(`/api/v1/venues?price_min=${min}&price_max=${max}`);
    const { items } = await allPages('/api/v1/venues');
    const expected = items.filter(
      (v) => v.pricing.starting_total && v.pricing.starting_total.amount >= min && v.pricing.starting_total.amount <= max,
    );
    expect(slugs).toEqual(expected.map((v) => v.slug));
    expect(new Set(expected.map((v) => v.pricing.currency))).toEqual(new Set(['USD', 'EUR', 'AUD']));
    const unpriced = items.filter((v) => v.pricing.starting_total === null);
    expect(unpriced.length).toBeGreaterThan(0);
    const anyPrice = new Set((await allPages('/api/v1/venues?price_min=0')).slugs);
    expect(anyPrice.size).toBe(items.length - unpriced.length);
    for (const v of unpriced) expect(anyPrice.has(v.slug)).toBe(false);
    // At the edge: a bound equal to a venue's amount includes it; one unit past excludes it.
    const edge = expected[0].pricing.starting_total!.amount;
    expect((await allPages(`/api/v1/venues?price_min=${edge}&price_max=${edge}`)).slugs).toContain(expected[0].slug);
    expect((await allPages(`/api/v1/venues?price_min=${edge + 1}&price_max=${edge + 1}`)).slugs).not.toContain(expected[0].slug);
  });

  // Amounts are whole units and the bounds are any number (§4.1): a fractional bound selects what the whole number
  // inside it does. Found by the property test: 1.5 reached the integer column of the band count as a type error (500).
  it('takes fractional price bounds: the same venues and total_count as the whole numbers inside them, on both surfaces', async () => {
    const { items } = await allPages('/api/v1/venues?price_min=5000&price_max=9000');
    const edge = items[0].pricing.starting_total!.amount;
    const whole = await t.rest(`/api/v1/venues?price_min=${edge}&price_max=${edge + 100}&limit=100`);
    for (const [min, max] of [
      [edge - 0.5, edge + 100.5],
      [edge - 0.001, edge + 100.999],
    ]) {
      const res = await t.rest(`/api/v1/venues?price_min=${min}&price_max=${max}&limit=100`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.map((v: { slug: string }) => v.slug)).toEqual(whole.body.data.map((v: { slug: string }) => v.slug));
      expect(res.body.pagination.total_count).toBe(whole.body.pagination.total_count);
      const gql = await t.graphql(`{ venues(priceMin: ${min}, priceMax: ${max}, first: 100) { totalCount edges { node { slug } } } }`);
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(gql.body.data.venues.totalCount).toBe(whole.body.pagination.total_count);
    }
    const past = await t.rest(`/api/v1/venues?price_min=${edge + 0.5}&price_max=${edge + 0.5}`);
    expect(past.status, past.text).toBe(200);
    expect(past.body.data.map((v: { slug: string }) => v.slug)).not.toContain(items[0].slug);
    // The band count's own statement (no page rows to compare): the same totals as the whole numbers inside.
    for (const [fractional, whole] of [
      ['price_max=1.5', 'price_max=1'],
      ['price_min=1.5', 'price_min=2'],
      ['price_min=0.5&price_max=0.75&amenities=pool', 'price_min=1&price_max=0&amenities=pool'],
      ['price_min=4999.5&price_max=9000.5&amenities=pool', 'price_min=5000&price_max=9000&amenities=pool'],
    ]) {
      const res = await t.rest(`/api/v1/venues?${fractional}`);
      expect(res.status, `${fractional}: ${res.text}`).toBe(200);
      const expected = await t.rest(`/api/v1/venues?${whole}`);
      expect(res.body.pagination.total_count, fractional).toBe(expected.status === 200 ? expected.body.pagination.total_count : 0);
    }
  });

  it('pages through a filtered set with no duplicates and a stable order', async () => {
    const { slugs, total } = await allPages('/api/v1/venues?amenities=pool');
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toHaveLength(total);
    expect(slugs).toEqual([...slugs].sort());
  });

  it('refuses forged, edited and re-targeted cursors with invalid_cursor', async () => {
    const first = await t.rest('/api/v1/venues?state=texas&limit=5');
    const cursor: string = first.body.pagination.next_cursor;
    const [payload, signature] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify({ p: ['zzz'], s: JSON.parse(Buffer.from(payload, 'base64url').toString()).s })).toString('base64url');
    for (const bad of [`${edited}.${signature}`, 'not-a-cursor', `${payload}.AAAA${signature.slice(4)}`, `${payload}`]) {
      expectRestError(await t.rest(`/api/v1/venues?state=texas&cursor=${encodeURIComponent(bad)}`), 400, 'invalid_cursor', 'cursor');
    }
    expectRestError(await t.rest(`/api/v1/venues?state=utah&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', 'cursor');
    const second = await t.rest(`/api/v1/venues?state=texas&limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(second.status).toBe(200);
    expect(second.body.data[0].slug > first.body.data[4].slug).toBe(true);
  });
});

describe('GET /api/v1/venues/{slug}', () => {
  it('returns every §2.3 field, at most 5 photos in gallery order, total_photos and testimonials', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({
      where: { published: true, totalPhotos: { gt: 5 } },
      include: { photos: true, testimonials: true },
    });
    const res = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    // §2.3's fields, and any column schema.prisma shows as a detail field (venue-detail-columns.test.ts).
    const shown = taggedColumns('Venue', 'detail').map(({ name }) => snakeCase(name));
    expect(Object.keys(d).sort()).toEqual(
      [...new Set([...LIST_FIELDS, 'description', 'accommodates', 'categories', 'photos', 'total_photos', 'testimonials', ...shown])].sort(),
    );
    expect(d.photos).toHaveLength(5);
    const expectedPhotos = [...venue.photos].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).slice(0, 5);
    expect(d.photos.map((p: { url: string }) => p.url)).toEqual(expectedPhotos.map((p) => p.url));
    for (const p of d.photos) expect(Object.keys(p).sort()).toEqual(['category', 'is_featured', 'position', 'url']);
    expect(d.total_photos).toBe(venue.photos.length);
    expect(d.testimonials).toHaveLength(venue.testimonials.length);
    for (const r of d.testimonials) expect(Object.keys(r).sort()).toEqual(['event_date', 'guest_name', 'rating', 'review']);
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('accepts unencoded slashes too', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true } });
    const res = await t.rest(`/api/v1/venues/${venue.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.data.slug).toBe(venue.slug);
  });

  it('answers invalid_slug for impossible characters and venue_not_found for unknown or unpublished venues', async () => {
    for (const bad of ["villa'; drop table", 'a b', 'a..b', 'x'.repeat(301), '%E0%A4%A']) {
      expectRestError(await t.rest(`/api/v1/venues/${encodeURIComponent(bad)}`), 400, 'invalid_slug', 'slug');
    }
    expectRestError(await t.rest('/api/v1/venues/california%2Fnowhere%2Fno-such-villa'), 404, 'venue_not_found', 'slug');
    const hidden = await t.db.prisma.venue.findFirstOrThrow({ where: { published: false } });
    expectRestError(await t.rest(`/api/v1/venues/${encodeURIComponent(hidden.slug)}`), 404, 'venue_not_found', 'slug');
  });

  it('shows AUD venues converted from stored USD at the day’s rate, rounded up to the nearest 100, with rate_date', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'AUD', startingTotal: { not: null } } });
    const rate = await t.db.prisma.exchangeRate.findFirstOrThrow({
      where: { base: 'USD', quote: 'AUD', rateDate: { lte: TODAY } },
      orderBy: { rateDate: 'desc' },
    });
    const res = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
    const p = res.body.data.pricing;
    expect(p.currency).toBe('AUD');
    expect(p.rate_date).toBe('2026-06-15');
    expect(rate.rateDate.toISOString().slice(0, 10)).toBe('2026-06-15');
    const convert = (usd: number) => Math.ceil((usd * rate.rate) / 100 - 1e-9) * 100;
    expect(p.starting_total).toEqual({ amount: convert(venue.startingTotal!), nights: venue.minNights, rate: 'weekday', includes_fees: true });
    expect(p.weekday_base).toBe(convert(venue.weekdayBase!));
    for (const amount of [p.weekday_base, p.weekend_base, p.starting_total.amount]) expect(amount % 100).toBe(0);
  });

  it('shows EUR venues in euros, never converted', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'EUR', startingTotal: { not: null } } });
    const p = (await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`)).body.data.pricing;
    expect(p).toMatchObject({ currency: 'EUR', rate_date: null, weekday_base: venue.weekdayBase, starting_total: { amount: venue.startingTotal } });
  });
});
