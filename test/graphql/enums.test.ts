import { ESTIMATOR_VENUE_TYPES } from '../../src/pricing/pricing.inputs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, type TestApp, type TestResponse } from '../support/app.js';
import { targets, validBody } from '../inquiries/support.js';

// Closed sets are GraphQL enums (issue 14): GraphQL answers the UPPER_SNAKE name, REST the wire value. One real
// request per surface for each enum proves the pair, written out literally here.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ok = (res: TestResponse) => {
  expect(res.status, `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 500)}`).toBeLessThan(300);
  expect(res.body.errors, res.text.slice(0, 500)).toBeUndefined();
  return res.body;
};

const VENUE_TYPE_NAMES = [...ESTIMATOR_VENUE_TYPES].map((v) => v.toUpperCase()).sort();

/** Every enum the schema has, with its GraphQL value names (the printed schema sorts them). */
const ENUMS: Record<string, string[]> = {
  ApiTier: ['FREE', 'PARTNER', 'PRO'],
  CostBenchmarkConvertedFrom: ['EUR'],
  CostBenchmarkCurrency: ['USD'],
  CostBenchmarkScope: ['COUNTRY', 'NATIONAL', 'STATE', 'VENUE_TYPE'],
  EstimatorEventType: ['WEEKDAY', 'WEEKEND'],
  EstimatorSeason: ['OFF', 'PEAK', 'SHOULDER'],
  EstimatorVenueType: VENUE_TYPE_NAMES,
  InquiryStatus: ['SUBMITTED'],
  KnowledgeDegradation: ['TEXT_ONLY'],
  InspirationColor: ['COOL', 'EARTH_TONES', 'JEWEL_TONES', 'MONOCHROME', 'MOODY_DARK', 'NEUTRAL_WHITE', 'PASTEL', 'VIBRANT', 'WARM'],
  InspirationMood: ['CELEBRATORY', 'DRAMATIC', 'ELEGANT', 'GRAND', 'INTIMATE', 'JOYFUL', 'ROMANTIC', 'SERENE'],
  InspirationSeason: ['FALL', 'SPRING', 'SUMMER', 'WINTER'],
  InspirationSetting: [
    'BALLROOM',
    'BEACH',
    'DESERT',
    'FOREST',
    'GARDEN',
    'INDOOR',
    'LAKEFRONT',
    'MOUNTAIN',
    'OUTDOOR',
    'POOLSIDE',
    'TENT',
    'VINEYARD',
  ],
  InspirationStyle: ['BOHEMIAN', 'CLASSIC', 'COASTAL', 'LUXURY', 'MINIMALIST', 'MODERN', 'ROMANTIC', 'RUSTIC'],
  KnowledgeChunkKind: ['KNOWLEDGE'],
  RegionCoverage: ['CALCULATOR', 'INSIGHTS_ONLY', 'PARENT_STATE'],
  RegionMatch: ['ALIAS', 'CITY', 'COUNTRY', 'SLUG', 'STATE'],
  RegionType: ['CITY', 'STATE'],
  SeasonMonthPeriod: ['OFF_SEASON', 'PEAK', 'SHOULDER', 'UNCLASSIFIED'],
  SeasonPeriod: ['OFF_SEASON', 'PEAK', 'SHOULDER'],
  VendorCategorySlug: [
    'CAKES_AND_DESSERTS',
    'CATERING',
    'FLORISTS',
    'HAIR_AND_MAKEUP',
    'MUSIC_AND_ENTERTAINMENT',
    'OFFICIANTS',
    'PHOTOGRAPHY',
    'RENTALS_AND_DECOR',
    'TRANSPORTATION',
    'VIDEOGRAPHY',
    'WEDDING_PLANNERS',
  ],
  VendorPriceUnit: ['PER_EVENT', 'PER_HOUR', 'PER_ITEM', 'PER_PERSON'],
  VendorSort: ['EXPERIENCE', 'NEWEST', 'PRICE_HIGH_TO_LOW', 'PRICE_LOW_TO_HIGH', 'WEDDINGS_COMPLETED'],
  VenueCurrency: ['AUD', 'EUR', 'USD'],
  VenuePriceUnit: ['PER_STAY'],
  VenueStartingRate: ['WEEKDAY', 'WEEKEND'],
  VenueSort: ['CAPACITY_DESC', 'DISTANCE', 'PRICE_ASC', 'PRICE_DESC', 'RECOMMENDED', 'RELEVANCE'],
  VenueFacet: ['AMENITIES', 'CAPACITY_BAND', 'PRICE_BAND', 'STATE', 'VENUE_TYPE'],
};

/** The documented rule, spelled out independently of src/graphql/closed-set.ts: hot-tub → HOT_TUB, per_stay → PER_STAY. */
const upper = (wire: string) => wire.replace(/-/g, '_').toUpperCase();

describe('closed sets as GraphQL enums', () => {
  it('the schema has each enum, every value described with its REST value', async () => {
    const body = ok(await t.graphql('{ __schema { types { name kind } } }'));
    const enums = body.data.__schema.types.filter((type: { kind: string; name: string }) => type.kind === 'ENUM' && !type.name.startsWith('__'));
    expect(enums.map((type: { name: string }) => type.name).sort()).toEqual(Object.keys(ENUMS).sort());
    for (const [name, values] of Object.entries(ENUMS)) {
      const type = ok(await t.graphql('query($name: String!) { __type(name: $name) { kind enumValues { name description } } }', { name })).data
        .__type;
      expect(type.kind).toBe('ENUM');
      expect(type.enumValues.map((v: { name: string }) => v.name)).toEqual(values);
      for (const value of type.enumValues) expect(value.description, `${name}.${value.name}`).toMatch(/^REST value: [\w-]+\.$/);
    }
  });

  it('venue pricing: PER_STAY and EUR on GraphQL, per_stay and EUR on REST', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'EUR' }, orderBy: { slug: 'asc' } });
    const rest = ok(await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`)).data.pricing;
    const gql = ok(await t.graphql('query($slug: String!) { venue(slug: $slug) { pricing { priceUnit currency } } }', { slug: venue.slug })).data
      .venue.pricing;
    expect([rest.price_unit, rest.currency]).toEqual(['per_stay', 'EUR']);
    expect(gql).toEqual({ priceUnit: 'PER_STAY', currency: 'EUR' });
  });

  it('vendor: e.g. WEDDING_PLANNERS and PER_PERSON on GraphQL, wedding-planners and per_person on REST', async () => {
    const vendor = await t.db.prisma.vendor.findFirstOrThrow({
      where: { active: true, serviceCategory: { contains: '-' }, priceUnit: { not: null } },
      orderBy: { slug: 'asc' },
    });
    const rest = ok(await t.rest(`/api/v1/vendors/${encodeURIComponent(vendor.slug)}`)).data;
    const gql = ok(await t.graphql('query($slug: String!) { vendor(slug: $slug) { serviceCategory priceUnit } }', { slug: vendor.slug })).data.vendor;
    expect([rest.service_category, rest.price_unit]).toEqual([vendor.serviceCategory, vendor.priceUnit]);
    expect(gql).toEqual({ serviceCategory: upper(vendor.serviceCategory), priceUnit: upper(vendor.priceUnit!) });
    expect(ENUMS.VendorCategorySlug).toContain(gql.serviceCategory);
    expect(ENUMS.VendorPriceUnit).toContain(gql.priceUnit);
  });

  it('inspiration photo: lists and season as names on GraphQL, wire values on REST', async () => {
    const photo = await t.db.prisma.inspirationPhoto.findFirstOrThrow({
      where: { season: { not: null }, colors: { hasSome: ['earth_tones', 'neutral_white', 'jewel_tones', 'moody_dark'] } },
      orderBy: { id: 'asc' },
    });
    const rest = ok(await t.rest(`/api/v1/inspiration/${photo.id}`)).data;
    const gql = ok(await t.graphql('query($id: String!) { inspirationPhoto(id: $id) { styles settings colors moods season } }', { id: photo.id }))
      .data.inspirationPhoto;
    for (const key of ['styles', 'settings', 'colors', 'moods'] as const) {
      expect(rest[key]).toEqual(photo[key]);
      expect(gql[key]).toEqual(photo[key].map(upper));
    }
    expect(gql.colors.some((c: string) => c.includes('_'))).toBe(true);
    expect(rest.season).toBe(photo.season);
    expect(gql.season).toBe(upper(photo.season!));
  });

  it('knowledge hit, benchmarks currency, inquiry status and key tier', async () => {
    const q = 'how much deposit do venues ask for';
    expect(ok(await t.rest(`/api/v1/knowledge/search?q=${encodeURIComponent(q)}&limit=1`)).data[0].kind).toBe('knowledge');
    expect(
      ok(await t.graphql('query($q: String!) { knowledgeSearch(q: $q, limit: 1) { data { kind } } }', { q })).data.knowledgeSearch.data[0].kind,
    ).toBe('KNOWLEDGE');
    expect(ok(await t.rest('/api/v1/cost-benchmarks')).currency).toBe('USD');
    expect(ok(await t.graphql('{ costBenchmarks { currency } }')).data.costBenchmarks.currency).toBe('USD');

    const tg = await targets(t);
    const rest = await t.rest('/api/v1/inquiries/vendor', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBody('vendor', tg, { guest_name: 'Enum REST' })),
    });
    expect(ok(rest).data.status).toBe('submitted');
    const gql = await t.graphql('mutation($input: VendorInquiryInput!) { createVendorInquiry(input: $input) { status } }', {
      input: { vendorSlug: tg.vendor, guestName: 'Enum GraphQL', guestEmail: 'ada@example.com', smsConsent: true },
    });
    expect(ok(gql).data.createVendorInquiry.status).toBe('SUBMITTED');

    expect(ok(await t.graphql('{ rateLimit { tier } }', {}, { key: t.keys.pro })).data.rateLimit.tier).toBe('PRO');
  });

  it('arguments: sortBy PRICE_LOW_TO_HIGH and style EARTH_TONES-like names on GraphQL, wire values on REST, same answers', async () => {
    const rest = ok(await t.rest('/api/v1/vendors?category=florists&sort_by=price_low_to_high&limit=5')).data;
    const gql = ok(await t.graphql('{ vendors(category: "florists", sortBy: PRICE_LOW_TO_HIGH, first: 5) { nodes { slug } } }')).data.vendors;
    expect(gql.nodes.map((n: { slug: string }) => n.slug)).toEqual(rest.map((v: { slug: string }) => v.slug));
    const restPhotos = ok(await t.rest('/api/v1/inspiration?color=earth_tones&setting=outdoor&limit=5')).data;
    const gqlPhotos = ok(await t.graphql('{ inspirationPhotos(color: EARTH_TONES, setting: OUTDOOR, first: 5) { nodes { id: photoId } } }')).data
      .inspirationPhotos;
    expect(restPhotos.length).toBeGreaterThan(0);
    expect(gqlPhotos.nodes.map((n: { id: string }) => n.id)).toEqual(restPhotos.map((p: { id: string }) => p.id));
    // The wire value is not a name: refused naming the argument, as the String argument's check did.
    expectGraphQLError(await t.graphql('{ vendors(sortBy: "price_low_to_high", first: 1) { totalCount } }'), 'invalid_parameters', 'sortBy');
    expectGraphQLError(await t.graphql('{ inspirationPhotos(color: earth_tones) { totalCount } }'), 'invalid_parameters', 'color');
  });
});
