import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { snakeCase } from '../../src/rest/route.js';
import { createTestApp, type TestApp } from '../support/app.js';

// Venue search reads two lookup tables that triggers on Venue keep (migration 20261125063056_search_lookup_tables):
// ListedVenueAmenity (the published venues' amenities) for one amenity, VenuePropertyType (the distinct property types)
// for venue_type. The reference here is Venue itself, filtered as §4.1 words the filters.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Filters {
  amenities?: string[];
  venueType?: string;
  state?: string;
  capacityMin?: number;
  bedroomsMin?: number;
  priceMin?: number;
  priceMax?: number;
}

const VENUES_PAGE = `query($amenities: [String!], $venueType: String, $state: String, $capacityMin: Int, $bedroomsMin: Int,
                         $priceMin: Float, $priceMax: Float, $after: String) {
  venues(amenities: $amenities, venueType: $venueType, state: $state, capacityMin: $capacityMin, bedroomsMin: $bedroomsMin,
         priceMin: $priceMin, priceMax: $priceMax, first: 100, after: $after) {
    totalCount nodes { slug pricing { currency } } pageInfo { hasNextPage endCursor }
  }
}`;

/** Published venues matching the filters, in slug order, read from Venue alone. */
async function reference(f: Filters): Promise<string[]> {
  const where: Prisma.VenueWhereInput = {
    published: true,
    ...(f.amenities && { amenities: { hasEvery: f.amenities } }),
    ...(f.venueType && { propertyType: { contains: f.venueType, mode: 'insensitive' } }),
    ...(f.state && { stateSlug: f.state }),
    ...(f.capacityMin !== undefined && { capacityMax: { gte: f.capacityMin } }),
    ...(f.bedroomsMin !== undefined && { bedrooms: { gte: f.bedroomsMin } }),
  };
  const rows = await t.db.prisma.venue.findMany({ where, select: { slug: true }, orderBy: { slug: 'asc' } });
  return rows.map((r) => r.slug);
}

const queryOf = (f: Filters | string) =>
  typeof f === 'string'
    ? f
    : Object.entries(f)
        .map(([k, v]) => `${snakeCase(k)}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`)
        .join('&');

/** Every page of a REST search (filters, or a query string), through next_cursor. */
async function restSearch(filters: Filters | string) {
  const slugs: string[] = [];
  let cursor: string | null = null;
  let total: number;
  do {
    const res = await t.rest(`/api/v1/venues?${queryOf(filters)}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    slugs.push(...res.body.data.map((v: { slug: string }) => v.slug));
    total = res.body.pagination.total_count;
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return { slugs, total };
}

/** The currencies of the venues the GraphQL searches found (a price band test must have met a converted one). */
const currencies = new Set<string>();

async function graphqlSearch(filters: Filters) {
  const slugs: string[] = [];
  let after: string | null = null;
  let total: number;
  do {
    const res = await t.graphql(VENUES_PAGE, { ...filters, ...(after ? { after } : {}) });
    expect(res.body.errors, res.text).toBeUndefined();
    const page = res.body.data.venues;
    slugs.push(...page.nodes.map((v: { slug: string }) => v.slug));
    for (const v of page.nodes as Array<{ pricing: { currency: string } | null }>) if (v.pricing) currencies.add(v.pricing.currency);
    total = page.totalCount;
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return { slugs, total };
}

async function expectBothSurfaces(filters: Filters, expected?: string[]) {
  const want = expected ?? (await reference(filters));
  expect(await restSearch(filters), queryOf(filters)).toEqual({ slugs: want, total: want.length });
  expect(await graphqlSearch(filters), queryOf(filters)).toEqual({ slugs: want, total: want.length });
  return want;
}

/** Rows of the lookup tables that Venue does not account for, and the other way round: all empty when exact. */
async function lookupDifference() {
  const q = (sql: string) => t.db.prisma.$queryRawUnsafe<unknown[]>(sql);
  const published = `SELECT DISTINCT a AS amenity, v.slug, v.currency, v."startingTotal" FROM "Venue" v, unnest(v.amenities) a
    WHERE v.published AND a IS NOT NULL`;
  const listed = `SELECT amenity, slug, currency, "startingTotal" FROM "ListedVenueAmenity"`;
  return {
    extraAmenities: await q(`${listed} EXCEPT ${published}`),
    missingAmenities: await q(`${published} EXCEPT ${listed}`),
    missingPropertyTypes: await q(`SELECT "propertyType" FROM "Venue" WHERE "propertyType" IS NOT NULL EXCEPT SELECT name FROM "VenuePropertyType"`),
  };
}
const EXACT = { extraAmenities: [], missingAmenities: [], missingPropertyTypes: [] };

describe('venue search through the lookup tables', () => {
  it('gives every published venue with one amenity, in slug order, with the exact total, on both surfaces', async () => {
    const counts = await t.db.prisma.$queryRawUnsafe<{ amenity: string; n: number }[]>(
      `SELECT a AS amenity, count(*)::int AS n FROM "Venue", unnest(amenities) a WHERE published GROUP BY a ORDER BY n DESC, a`,
    );
    expect(counts.length).toBeGreaterThan(2);
    // The most common amenity (several pages), the rarest, and one no venue has.
    for (const amenity of [counts[0].amenity, counts[counts.length - 1].amenity, 'no-such-amenity'])
      await expectBothSurfaces({ amenities: [amenity] });
    expect((await reference({ amenities: [counts[0].amenity] })).length).toBeGreaterThan(100);
    expect(await lookupDifference()).toEqual(EXACT);
  });

  it('combines an amenity, venue_type and the other filters as testing every venue row would', async () => {
    const cases: Filters[] = [
      { venueType: 'villa' },
      { venueType: 'VILLA' },
      { venueType: 'barn' },
      { venueType: 'no-such-type' },
      { venueType: 'villa', state: 'california' },
      { amenities: ['pool'], state: 'california' },
      { amenities: ['pool'], capacityMin: 12 },
      { amenities: ['pool'], bedroomsMin: 6 },
      { amenities: ['pool'], venueType: 'estate', capacityMin: 10 },
      { amenities: ['pool', 'hot-tub'] },
      { amenities: ['pool', 'hot-tub'], state: 'texas', capacityMin: 10 },
      // Two amenities alone (a repeated one counts once) are counted from PublishedVenueCount; more, by the GIN index.
      { amenities: ['pool', 'hot-tub', 'wifi'] },
      { amenities: ['wifi', 'pool', 'wifi'] },
      { amenities: ['pool', 'no-such-amenity'] },
      { amenities: ['wifi', 'pool', 'hot-tub', 'fire-pit', 'dance-floor', 'on-site-parking', 'air-conditioning', 'wifi'] },
      { amenities: ['wifi', 'pool', 'hot-tub', 'fire-pit', 'dance-floor', 'on-site-parking', 'air-conditioning', 'wifi', 'pool'] },
    ];
    for (const filters of cases) {
      const found = await expectBothSurfaces(filters);
      if (!JSON.stringify(filters).includes('no-such') && (filters.amenities?.length ?? 0) < 8)
        expect(found.length, queryOf(filters)).toBeGreaterThan(0);
    }
  });

  it('matches venue_type as written: % and _ are characters of a property type, not wildcards, on both surfaces', async () => {
    for (const venueType of ['%', '_', 'a%e', '\\', '_state']) await expectBothSurfaces({ venueType }, []);
    const { name } = await t.db.prisma.venuePropertyType.findFirstOrThrow({ where: { name: { contains: 'a' } }, orderBy: { name: 'asc' } });
    await t.db.prisma.venue.updateMany({ where: { propertyType: name }, data: { propertyType: `${name} 100%_Off` } });
    const renamed = await reference({ venueType: `${name} 100%_Off` });
    expect(renamed.length).toBeGreaterThan(0);
    await expectBothSurfaces({ venueType: '100%_off' }, renamed);
    await expectBothSurfaces({ venueType: '100%' }, renamed);
    await expectBothSurfaces({ venueType: '0%_O' }, renamed);
    await expectBothSurfaces({ venueType: '1_0' }, []);
  });

  it('gives a price band with one amenity as the band without it, less the venues without the amenity', async () => {
    const band = (await restSearch('price_min=3000&price_max=9000')).slugs;
    const pool = new Set(await reference({ amenities: ['pool'] }));
    const both = await restSearch('price_min=3000&price_max=9000&amenities=pool');
    expect(both.slugs).toEqual(band.filter((s) => pool.has(s)));
    expect(both.total).toBe(both.slugs.length);
    expect(both.total).toBeGreaterThan(0);
  });

  it('counts a price band, alone or with one amenity, exactly as many venues as its pages hold, on both surfaces', async () => {
    // The count is priceBandCount's sum of range counts; the pages are priceFilter's OR (the same set, written twice).
    const bands: Array<Pick<Filters, 'priceMin' | 'priceMax'>> = [
      { priceMin: 5000, priceMax: 5500 },
      { priceMin: 3000, priceMax: 9000 },
      { priceMin: 1000, priceMax: 50000 },
      { priceMin: 20000 },
      { priceMax: 3000 },
      { priceMin: 0, priceMax: 10_000_000 },
      // A single amount and a band above every price: may hold nothing, and must still count what they hold.
      { priceMin: 7000, priceMax: 7000 },
      { priceMin: 9_000_000 },
    ];
    currencies.clear();
    for (const band of bands) {
      for (const filters of [band, { ...band, amenities: ['pool'] }, { ...band, amenities: ['no-such-amenity'] }]) {
        const rest = await restSearch(filters);
        expect(rest.total, queryOf(filters)).toBe(rest.slugs.length);
        expect(await graphqlSearch(filters), queryOf(filters)).toEqual(rest);
        if (filters === band && bands.indexOf(band) < 6) expect(rest.total, queryOf(filters)).toBeGreaterThan(0);
      }
    }
    // Converted amounts (AUD venues are stored in USD) were among the counted, so the formula's correction was exercised.
    expect([...currencies].sort()).toEqual(expect.arrayContaining(['AUD', 'USD']));
    // Every priced published venue is in the band from 0 to the largest price.
    const priced = await t.db.prisma.venue.count({ where: { published: true, startingTotal: { not: null } } });
    expect((await restSearch({ priceMin: 0, priceMax: 10_000_000 })).total).toBe(priced);
  });

  it('runs as many statements as a search without filters (the page with its venues joined, and the count)', async () => {
    const plain = await t.statements(() => t.rest('/api/v1/venues?limit=20'));
    for (const filters of [
      'amenities=pool',
      'venue_type=villa',
      'amenities=pool&venue_type=estate&state=texas',
      'price_min=3000&price_max=9000',
      'amenities=pool&price_min=3000',
      'amenities=pool,hot-tub',
    ]) {
      expect(await t.statements(() => t.rest(`/api/v1/venues?limit=20&${filters}`)), filters).toBe(plain);
    }
  });

  it('stays exact as venues are unpublished, edited, renamed, added and deleted (the triggers on Venue)', async () => {
    const prisma = t.db.prisma;
    const venue = await prisma.venue.findFirstOrThrow({ where: { published: true, amenities: { has: 'pool' } }, orderBy: { slug: 'asc' } });
    const pool = await reference({ amenities: ['pool'] });
    expect(pool).toContain(venue.slug);

    await prisma.venue.update({ where: { id: venue.id }, data: { published: false } });
    await expectBothSurfaces(
      { amenities: ['pool'] },
      pool.filter((s) => s !== venue.slug),
    );

    await prisma.venue.update({
      where: { id: venue.id },
      data: { published: true, amenities: [...venue.amenities, 'test-amenity', 'test-amenity'] },
    });
    await expectBothSurfaces({ amenities: ['pool'] }, pool);
    await expectBothSurfaces({ amenities: ['test-amenity'] }, [venue.slug]);

    // A property type no venue had: venue_type finds it at once.
    await prisma.venue.update({
      where: { id: venue.id },
      data: { slug: 'zz-renamed-venue', amenities: ['test-amenity'], propertyType: 'Zebra Pavilion' },
    });
    await expectBothSurfaces({ amenities: ['test-amenity'] }, ['zz-renamed-venue']);
    await expectBothSurfaces(
      { amenities: ['pool'] },
      pool.filter((s) => s !== venue.slug),
    );
    await expectBothSurfaces({ venueType: 'zebra' }, ['zz-renamed-venue']);
    await expectBothSurfaces({ venueType: 'zebra', amenities: ['test-amenity'] }, ['zz-renamed-venue']);

    // A new price moves the venue's listed amenities with it (an amenity with a price band is counted from them).
    const price = { currency: 'USD', startingTotal: 1_234_567 };
    await prisma.venue.update({ where: { id: venue.id }, data: price });
    await expectBothSurfaces({ amenities: ['test-amenity'], priceMin: 1_234_567, priceMax: 1_234_567 }, ['zz-renamed-venue']);
    await expectBothSurfaces({ amenities: ['test-amenity'], priceMax: 1_234_566 }, []);
    expect(await lookupDifference()).toEqual(EXACT);

    const { id: _id, slug: _slug, createdAt: _c, updatedAt: _u, ...columns } = venue;
    await prisma.venue.create({
      data: { ...columns, slug: 'aa-new-venue', amenities: ['test-amenity', 'pool', 'test-amenity'], propertyType: 'Zebra Barn' },
    });
    await expectBothSurfaces({ amenities: ['test-amenity'] }, ['aa-new-venue', 'zz-renamed-venue']);
    await expectBothSurfaces({ venueType: 'ZEBRA' }, ['aa-new-venue', 'zz-renamed-venue']);

    await prisma.venue.delete({ where: { id: venue.id } });
    await expectBothSurfaces({ amenities: ['test-amenity'] }, ['aa-new-venue']);
    await expectBothSurfaces({ venueType: 'zebra' }, ['aa-new-venue']);
    expect(await lookupDifference()).toEqual(EXACT);
  });
});
