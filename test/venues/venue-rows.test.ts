// Venue search reads its pages and totals through the driver (src/venues/venues.service.ts, venue-rows.ts), in SQL
// written from the filters. These tests hold every page, row and total equal to a reference computed here from every
// published venue as Prisma reads it, filtered as §4.1 words the filters: state and city by slug, venue_type a
// case-insensitive substring of the property type taken literally (% and _ included), capacity against the sleeping
// capacity, every amenity listed, a price band against the starts-at amount each venue shows in its own currency.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/pagination/cursor.js';
import { createDayRates } from '../../src/catalogue/exchange-rates.js';
import { slugify } from '../../src/catalogue/slug.js';
import { NAMED_AMENITIES } from '../../src/venues/venues.inputs.js';
import { STORED_AS, venuePricing } from '../../src/venues/venue-pricing.js';
import { searchVenues, visibleVenuesById, type VenueDeps } from '../../src/venues/venues.service.js';
import type { VenueDetailRow, VenueSelection } from '../../src/venues/venue-rows.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from '../../src/venues/venue-relations.js';
import { testDatabaseKind } from '../support/database.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let deps: VenueDeps;
let venues: VenueDetailRow[];
/** The amount each venue's page shows as its starts-at figure, in its own currency (null: unpriced). */
const shownAmount = new Map<string, number | null>();

const INCLUDE = { photos: VENUE_PHOTOS, testimonials: VENUE_TESTIMONIALS };

beforeAll(async () => {
  t = await createTestApp();
  deps = {
    readRows: t.db.readRows,
    cursors: createCursorCodec('venue-rows-test-secret-0123456789abcdef'),
    dayRate: createDayRates({ prisma: t.db.prisma, now: () => new Date() }),
  };
  venues = await t.db.prisma.venue.findMany({ where: { published: true }, include: INCLUDE, orderBy: { slug: 'asc' } });
  for (const v of venues) {
    const conversion = STORED_AS[v.currency];
    const dayRate = conversion ? await deps.dayRate(`${conversion.stored}:${v.currency}`) : null;
    // A converted currency on a day without a rate shows no amount a band could match.
    shownAmount.set(v.slug, conversion && !dayRate ? null : (venuePricing(v, dayRate).startingTotal?.amount ?? null));
  }
});
afterAll(() => t.close());

interface Filters {
  state?: string;
  city?: string;
  venueType?: string;
  capacityMin?: number;
  capacityMax?: number;
  bedroomsMin?: number;
  amenities?: string[];
  priceMin?: number;
  priceMax?: number;
}

function matches(v: VenueDetailRow, f: Filters): boolean {
  const amount = shownAmount.get(v.slug);
  return (
    (f.state === undefined || v.stateSlug === slugify(f.state)) &&
    (f.city === undefined || v.citySlug === slugify(f.city)) &&
    (f.venueType === undefined || (v.propertyType ?? '\u0000').toLowerCase().includes(f.venueType.trim().toLowerCase())) &&
    (f.capacityMin === undefined || (v.capacityMax !== null && v.capacityMax >= f.capacityMin)) &&
    (f.capacityMax === undefined || (v.capacityMax !== null && v.capacityMax <= f.capacityMax)) &&
    (f.bedroomsMin === undefined || (v.bedrooms !== null && v.bedrooms >= f.bedroomsMin)) &&
    (f.amenities === undefined || f.amenities.every((a) => v.amenities.includes(a))) &&
    ((f.priceMin === undefined && f.priceMax === undefined) ||
      (amount != null && (f.priceMin === undefined || amount >= f.priceMin) && (f.priceMax === undefined || amount <= f.priceMax)))
  );
}

/**
 * Selections GraphQL plans: the list item's columns, the detail's columns with both relations, a relation alone
 * (without a select: whole related rows), and relations with the columns a query selected of them.
 */
const SELECTIONS: Array<{ name: string; selection: VenueSelection | undefined; keys: string[] | null }> = [
  { name: 'everything', selection: undefined, keys: null },
  {
    name: 'list item',
    selection: { id: true, slug: true, name: true, currency: true, startingTotal: true, amenities: true, capacityMax: true },
    keys: ['id', 'slug', 'name', 'currency', 'startingTotal', 'amenities', 'capacityMax'],
  },
  { name: 'photos', selection: { id: true, slug: true, photos: VENUE_PHOTOS }, keys: ['id', 'slug', 'photos'] },
  { name: 'testimonials', selection: { slug: true, testimonials: {}, description: true }, keys: ['slug', 'testimonials', 'description'] },
  {
    name: 'selected columns of both relations',
    selection: {
      slug: true,
      photos: { ...VENUE_PHOTOS, select: { url: true, position: true } },
      testimonials: { ...VENUE_TESTIMONIALS, select: { rating: true, eventDate: true } },
    },
    keys: ['slug', 'photos', 'testimonials'],
  },
];
const only = (rows: object[], select: Record<string, unknown>) =>
  rows.map((row) => Object.fromEntries(Object.keys(select).map((k) => [k, (row as Record<string, unknown>)[k]])));
/** A search row's Venue fields: it also carries its statement's count and order key, under "$" names no field has. */
const venueFields = (row: object) => Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('$')));
function picked(v: VenueDetailRow, selection: VenueSelection | undefined, keys: string[] | null) {
  if (!keys) return v;
  const row = Object.fromEntries(keys.map((k) => [k, (v as unknown as Record<string, unknown>)[k]]));
  for (const relation of ['photos', 'testimonials'] as const) {
    const select = (selection?.[relation] as { select?: Record<string, unknown> } | undefined)?.select;
    if (select) row[relation] = only(v[relation], select);
  }
  return row;
}

describe(`venue search read through the driver (${testDatabaseKind()})`, () => {
  it('pages and totals any filter combination as the reference does, with the rows Prisma reads for each selection', async () => {
    const states = [...new Set(venues.map((v) => v.state))];
    const cities = [...new Set(venues.map((v) => v.city))];
    const amenityNames = [...NAMED_AMENITIES, 'wifi', 'no-such-amenity'];
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
    const filters = fc
      .record({
        state: maybe(fc.constantFrom(...states, 'Nowhere')),
        city: maybe(fc.constantFrom(...cities)),
        venueType: maybe(
          fc.oneof(
            fc.constantFrom('villa', 'ESTATE', ' barn ', 'ranch'),
            fc.stringMatching(/^[ae%_\\ ]{1,4}$/).filter((s) => s.trim() !== ''),
          ),
        ),
        capacityMin: maybe(fc.integer({ min: 0, max: 40 })),
        capacityMax: maybe(fc.integer({ min: 40, max: 10_000 })),
        bedroomsMin: maybe(fc.integer({ min: 0, max: 12 })),
        amenities: maybe(fc.uniqueArray(fc.constantFrom(...amenityNames), { minLength: 1, maxLength: 4 })),
        priceMin: maybe(fc.oneof(fc.integer({ min: 0, max: 30_000 }), fc.double({ min: 0, max: 30_000, noNaN: true }))),
        priceMax: maybe(fc.integer({ min: 0, max: 60_000 })),
      })
      // The search refuses a band whose maximum is under its minimum (venues.rest.test.ts).
      .filter((f) => f.priceMin === undefined || f.priceMax === undefined || f.priceMin <= f.priceMax);
    await fc.assert(
      fc.asyncProperty(
        filters,
        fc.integer({ min: 1, max: 100 }),
        fc.nat(),
        fc.constantFrom(...SELECTIONS),
        fc.boolean(),
        async (f, first, start, { selection, keys }, countWithPage) => {
          const all = venues.filter((v) => matches(v, f));
          // A cursor after one of the matching venues (or none), as the previous page's last row leaves it.
          const afterIndex = all.length === 0 ? -1 : (start % (Math.min(all.length, 100) + 1)) - 1;
          let after: string | undefined;
          if (afterIndex >= 0) {
            const previous = await searchVenues<{ slug: string }>({ ...f, first: afterIndex + 1 }, { slug: true }, deps);
            expect(previous.nodes.map((v) => v.slug)).toEqual(all.slice(0, afterIndex + 1).map((v) => v.slug));
            after = previous.cursorOf(previous.nodes[afterIndex]);
          }
          // With countWithPage the count is a column of the page's statement (counted alone past the end); without, alone.
          const page = await searchVenues<VenueDetailRow>({ ...f, first, after }, selection, deps, { countWithPage });
          const expected = all.slice(afterIndex + 1, afterIndex + 1 + first);
          expect(page.nodes.map(venueFields)).toEqual(expected.map((v) => picked(v, selection, keys)));
          expect(page.hasNextPage).toBe(all.length > afterIndex + 1 + first);
          expect(await page.totalCount()).toBe(all.length);
        },
      ),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 200), 400) },
    );
  });

  it('covers the edges it must: a price band meets a converted currency, venue types with % and _ match literally', async () => {
    expect(venues.some((v) => STORED_AS[v.currency] && shownAmount.get(v.slug) !== null)).toBe(true);
    const percent = await searchVenues<{ slug: string }>({ venueType: '%' }, { slug: true }, deps);
    expect(percent.nodes).toEqual([]);
    expect(await percent.totalCount()).toBe(0);
    const underscore = await searchVenues<{ slug: string }>({ venueType: '_' }, { slug: true }, deps);
    expect(await underscore.totalCount()).toBe(venues.filter((v) => v.propertyType?.includes('_')).length);
  });

  it('reads published venues by id with the selection asked for, and no unpublished one', async () => {
    const unpublished = await t.db.prisma.venue.update({ where: { slug: venues[0].slug }, data: { published: false } });
    const ids = [...venues.slice(0, 7).map((v) => v.id), '00000000-0000-4000-8000-000000000000'];
    const rows = (await visibleVenuesById(ids, undefined, deps)) as VenueDetailRow[];
    expect(rows.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(venues.slice(1, 7));
    expect(await visibleVenuesById([venues[1].id], { slug: true, photos: {} }, deps)).toEqual([{ slug: venues[1].slug, photos: venues[1].photos }]);
    await t.db.prisma.venue.update({ where: { id: unpublished.id }, data: { published: true } });
  });

  it('answers a GraphQL search that selects no venue field: the count and cursors alone', async () => {
    const res = await t.graphql('{ venues(first: 2) { totalCount pageInfo { hasNextPage endCursor } } }');
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.venues).toMatchObject({ totalCount: venues.length, pageInfo: { hasNextPage: true } });
    const next = await t.graphql('query($a: String) { venues(first: 2, after: $a) { edges { cursor } } }', {
      a: res.body.data.venues.pageInfo.endCursor,
    });
    expect(next.body.errors, next.text).toBeUndefined();
    const third = await t.graphql('query($a: String) { venues(first: 1, after: $a) { nodes { slug } } }', {
      a: next.body.data.venues.edges[0].cursor,
    });
    expect(third.body.data.venues.nodes).toEqual([{ slug: venues[3].slug }]);
  });

  it('refuses a selection that names no column or relation of the model, before any SQL is written', async () => {
    await expect(searchVenues({}, { slug: true, 'slug"; DROP TABLE "Venue"; --': true }, deps)).rejects.toThrow(/cannot select/);
    await expect(searchVenues({}, { slug: true, photos: { select: { 'url", (SELECT 1) AS "x': true } } }, deps)).rejects.toThrow(/cannot select/);
    await expect(searchVenues({}, { slug: true, testimonials: { select: { venue: true } } }, deps)).rejects.toThrow(/cannot select/);
  });
});
