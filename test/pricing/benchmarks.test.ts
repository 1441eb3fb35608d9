import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectRestError, type TestApp, withEnumNames } from '../support/app.js';
import { createEmptyTestDatabase } from '../support/database.js';
import type { Database } from '../../src/db/client.js';
import { percentile } from '../../src/pricing/benchmarks.service.js';

// §4.4 cost benchmarks on a small dataset of our own, so every figure is hand-computed. Percentiles interpolate
// linearly (h = (n − 1)·p), like PostgreSQL percentile_cont; results are whole dollars.

const NOW = new Date('2026-06-15T12:00:00Z');
let db: Database;
let t: TestApp;
let seq = 0;

type Row = { country: string; state: string; currency: string; weekdayBase: number | null; venueType: string; published?: boolean };
const venue = (r: Row) => {
  const n = ++seq;
  return {
    slug: `${r.state.toLowerCase().replace(/ /g, '-')}/town/venue-${n}`,
    name: `Venue ${n}`,
    city: 'Town',
    citySlug: 'town',
    state: r.state,
    stateSlug: r.state.toLowerCase().replace(/ /g, '-'),
    country: r.country,
    venueType: r.venueType,
    propertyType: r.venueType,
    currency: r.currency,
    minNights: 2,
    weekdayBase: r.weekdayBase,
    weekendBase: r.weekdayBase === null ? null : r.weekdayBase + 500,
    published: r.published ?? true,
  };
};
const us = (state: string, weekdayBase: number | null, venueType: string, published = true) =>
  venue({ country: 'United States', state, currency: 'USD', weekdayBase, venueType, published });

beforeAll(async () => {
  db = await createEmptyTestDatabase();
  await db.prisma.venue.createMany({
    data: [
      us('California', 1000, 'estate'),
      us('California', 2000, 'estate'),
      us('California', 3000, 'villa'),
      us('California', 4000, 'ranch'),
      us('California', 99999, 'estate', false), // unpublished: never counted
      us('California', null, 'estate'), // no base: never counted
      us('Texas', 5000, 'estate'),
      us('Texas', 6000, 'ranch'),
      us('Oregon', 10000, 'estate'),
      // Italy, EUR at 1.2 USD: 1200, 1800, 3000, 3720.
      ...[1000, 1500, 2500, 3100].map((b) => venue({ country: 'Italy', state: 'Tuscany', currency: 'EUR', weekdayBase: b, venueType: 'villa' })),
      // Ireland, EUR at 1.2: 1201.2, 1202.4, 1204.8 (exactly three).
      ...[1001, 1002, 1004].map((b) => venue({ country: 'Ireland', state: 'County Kerry', currency: 'EUR', weekdayBase: b, venueType: 'castle' })),
      // Australia stores USD (§2.1): the stored amounts are used as they are, never the rounded AUD display.
      ...[2000, 3000, 4000].map((b) => venue({ country: 'Australia', state: 'Victoria', currency: 'AUD', weekdayBase: b, venueType: 'cottage' })),
      // Mexico: two listings, below the 3-listing rule.
      ...[2500, 3500].map((b) => venue({ country: 'Mexico', state: 'Jalisco', currency: 'USD', weekdayBase: b, venueType: 'hacienda' })),
    ],
  });
  const day = (d: string) => new Date(`${d}T00:00:00Z`);
  await db.prisma.exchangeRate.createMany({
    data: [
      { base: 'EUR', quote: 'USD', rateDate: day('2026-06-10'), rate: 1.1 },
      { base: 'EUR', quote: 'USD', rateDate: day('2026-06-14'), rate: 1.2 },
      { base: 'EUR', quote: 'USD', rateDate: day('2026-06-20'), rate: 1.5 }, // after today: not yet applicable
      { base: 'USD', quote: 'AUD', rateDate: day('2026-06-14'), rate: 1.53 },
    ],
  });
  t = await createTestApp({ database: db, now: () => NOW });
});
afterAll(async () => {
  await t.close();
  await db.close();
});

const figures = (median: number, low: number, high: number) => ({
  median_base_per_stay: median,
  typical_low_base_per_stay: low,
  typical_high_base_per_stay: high,
  median_nightly: median,
  typical_low_nightly: low,
  typical_high_nightly: high,
});
const ROW_KEYS = { country: null, state: null, venue_type: null };

const NATIONAL = { scope: 'national', ...ROW_KEYS, country: 'United States', ...figures(4000, 2500, 5500), converted_from: null, listings: 7 };
const CALIFORNIA = {
  scope: 'state',
  ...ROW_KEYS,
  country: 'United States',
  state: 'California',
  ...figures(2500, 1750, 3250),
  converted_from: null,
  listings: 4,
};
const ESTATE = { scope: 'venue_type', ...ROW_KEYS, venue_type: 'estate', ...figures(3500, 1750, 6250), converted_from: null, listings: 4 };
const VILLA = { scope: 'venue_type', ...ROW_KEYS, venue_type: 'villa', ...figures(3000, 1800, 3000), converted_from: 'EUR', listings: 5 };
const AUSTRALIA = { scope: 'country', ...ROW_KEYS, country: 'Australia', ...figures(3000, 2500, 3500), converted_from: null, listings: 3 };
const IRELAND = { scope: 'country', ...ROW_KEYS, country: 'Ireland', ...figures(1202, 1202, 1204), converted_from: 'EUR', listings: 3 };
const ITALY = { scope: 'country', ...ROW_KEYS, country: 'Italy', ...figures(2400, 1650, 3180), converted_from: 'EUR', listings: 4 };

describe('percentile (linear interpolation between closest ranks)', () => {
  it('matches PostgreSQL percentile_cont on small sets', () => {
    expect(percentile([1000, 2000, 3000, 4000], 0.25)).toBe(1750);
    expect(percentile([1000, 2000, 3000, 4000], 0.5)).toBe(2500);
    expect(percentile([1000, 2000, 3000, 4000], 0.75)).toBe(3250);
    expect(percentile([7], 0.25)).toBe(7);
    expect(percentile([1, 2, 3], 1)).toBe(3);
  });
});

describe('GET /api/v1/cost-benchmarks and costBenchmarks', () => {
  it('returns national, per-state, per-venue-type and per-country rows backed by at least 3 live listings', async () => {
    const res = await t.rest('/api/v1/cost-benchmarks');
    expect(res.status, res.text).toBe(200);
    // National: US [1000, 2000, 3000, 4000, 5000, 6000, 10000]: h = 1.5, 3, 4.5. Texas (2), Oregon (1), ranch (2),
    // mansion (0) and Mexico (2) have too few listings and no row.
    expect(res.body.data).toEqual([NATIONAL, CALIFORNIA, ESTATE, VILLA, AUSTRALIA, IRELAND, ITALY]);
    expect(res.body).toMatchObject({
      currency: 'USD',
      fx: { eur_to_usd: 1.2, rate_date: '2026-06-14' },
      as_of: '2026-06-15',
      source_url: 'http://api.test/venues',
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.body.note).toMatch(/weekday base.*whole minimum stay/);
    expect(Object.keys(res.body).sort()).toEqual(['as_of', 'currency', 'data', 'fx', 'note', 'request_id', 'source_url']);

    const gql =
      await t.graphql(`{ costBenchmarks { data { scope country state venueType medianBasePerStay typicalLowBasePerStay typicalHighBasePerStay
      convertedFrom medianNightly typicalLowNightly typicalHighNightly listings } currency fx { eurToUsd rateDate } asOf sourceUrl note } }`);
    const { request_id: _id, ...body } = res.body;
    expect(gql.body.data.costBenchmarks).toEqual(withEnumNames(camelKeys(body), ['scope', 'convertedFrom']));
  });

  it('filters to the matching row: state, venue_type, country, or all of them', async () => {
    const rows = async (query: string) => (await t.rest(`/api/v1/cost-benchmarks?${query}`)).body.data;
    expect(await rows('state=California')).toEqual([CALIFORNIA]);
    expect(await rows('state=california')).toEqual([CALIFORNIA]);
    expect(await rows('venue_type=estate')).toEqual([ESTATE]);
    expect(await rows('venue_type=villa')).toEqual([VILLA]);
    expect(await rows('country=Italy')).toEqual([ITALY]);
    expect(await rows('country=australia')).toEqual([AUSTRALIA]);
    expect(await rows('country=United%20States')).toEqual([NATIONAL]);
    // California estates: [1000, 2000] — two listings, no figure.
    expect(await rows('state=California&venue_type=estate')).toEqual([]);
    // Italian villas: all four Italian listings.
    expect(await rows('country=Italy&venue_type=villa')).toEqual([{ ...ITALY, venue_type: 'villa' }]);
    for (const query of ['state=Texas', 'state=Oregon', 'country=Mexico', 'venue_type=ranch', 'venue_type=mansion', 'state=Atlantis']) {
      expect(await rows(query), query).toEqual([]);
    }
    const gql = await t.graphql('{ costBenchmarks(state: "California") { data { state listings medianBasePerStay } } }');
    expect(gql.body.data.costBenchmarks.data).toEqual([{ state: 'California', listings: 4, medianBasePerStay: 2500 }]);
  });

  it('is computed from live listings: a new listing or an unpublished one changes the figures at once', async () => {
    const texas = await db.prisma.venue.create({ data: us('Texas', 7000, 'estate') });
    // Texas [5000, 6000, 7000] now has 3 listings: h = 0.5, 1, 1.5.
    expect((await t.rest('/api/v1/cost-benchmarks?state=Texas')).body.data).toEqual([
      { scope: 'state', ...ROW_KEYS, country: 'United States', state: 'Texas', ...figures(6000, 5500, 6500), converted_from: null, listings: 3 },
    ]);
    await db.prisma.venue.update({ where: { id: texas.id }, data: { published: false } });
    expect((await t.rest('/api/v1/cost-benchmarks?state=Texas')).body.data).toEqual([]);
    expect((await t.rest('/api/v1/cost-benchmarks')).body.data[0]).toEqual(NATIONAL);
  });

  it('converts euros at the newest rate dated on or before today', async () => {
    const before = await createTestApp({ database: db, now: () => new Date('2026-06-12T09:00:00Z') });
    try {
      const res = await before.rest('/api/v1/cost-benchmarks?country=Italy');
      // At 1.1: [1100, 1650, 2750, 3410] → h = 0.75, 1.5, 2.25.
      expect(res.body.fx).toEqual({ eur_to_usd: 1.1, rate_date: '2026-06-10' });
      expect(res.body.data).toEqual([{ ...ITALY, ...figures(2200, 1513, 2915) }]);
    } finally {
      await before.close();
    }
  });

  it('refuses empty and overlong filters naming them, on both surfaces', async () => {
    expectRestError(await t.rest('/api/v1/cost-benchmarks?state='), 400, 'invalid_parameters', 'state');
    expectRestError(await t.rest(`/api/v1/cost-benchmarks?country=${'x'.repeat(101)}`), 400, 'invalid_parameters', 'country');
    expectRestError(await t.rest('/api/v1/cost-benchmarks?venue_type='), 400, 'invalid_parameters', 'venue_type');
    const gql = await t.graphql('{ costBenchmarks(venueType: "") { currency } }');
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameters', param: 'venueType' });
  });

  it('states each filter’s own bound: venue_type 50 characters passes, 51 is refused as "at most 50"', async () => {
    expect((await t.rest(`/api/v1/cost-benchmarks?venue_type=${'v'.repeat(50)}`)).status).toBe(200);
    const rest = await t.rest(`/api/v1/cost-benchmarks?venue_type=${'v'.repeat(51)}`);
    expectRestError(rest, 400, 'invalid_parameters', 'venue_type');
    expect(rest.body.error.message).toContain('must be at most 50 characters');
    const gql = await t.graphql(`{ costBenchmarks(venueType: "${'v'.repeat(51)}") { currency } }`);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameters', param: 'venueType' });
    expect(gql.body.errors[0].message).toContain('must be at most 50 characters');
    const country = await t.rest(`/api/v1/cost-benchmarks?country=${'c'.repeat(101)}`);
    expect(country.body.error.message).toContain('must be at most 100 characters');
    const city = await t.rest(`/api/v1/regional-cost-ranges?city=${'c'.repeat(101)}`);
    expectRestError(city, 400, 'invalid_parameters', 'city');
    expect(city.body.error.message).toContain('must be at most 100 characters');
  });
});
