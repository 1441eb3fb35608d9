// Venue search is one planner (src/venues/venues.queries.ts) choosing among a table of measured special paths. This
// walks whole searches through the production entries, REST and GraphQL, page by page through their cursors, and holds
// every page and every page's total to a reference computed here from Prisma's rows as §4.1 words the filters, with
// no call into the planner: the strategies must agree with it for any filter combination, the special ones included.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Venue } from '../../src/generated/prisma/client.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import type { Filters } from './discovery-reference.js';

let t: TestApp;
let venues: Venue[];
/** USD → AUD: the newest rate dated on or before today (§2.1 "the day's rate"); null when none is. */
let audRate: number | null;

beforeAll(async () => {
  t = await createTestApp();
  venues = await t.db.prisma.venue.findMany({ where: { published: true }, orderBy: { slug: 'asc' } });
  const today = new Date(new Date().toISOString().slice(0, 10));
  const rate = await t.db.prisma.exchangeRate.findFirst({
    where: { base: 'USD', quote: 'AUD', rateDate: { lte: today } },
    orderBy: { rateDate: 'desc' },
  });
  audRate = rate?.rate ?? null;
});
afterAll(() => t.close());

/** A text filter as sent, and the slug it names (state and city are matched by slug). */
/** A search of the §4.1 filters (the discovery reference states them once). */
type Search = Filters;

/**
 * §2.1: the starts-at amount a venue shows, in its own currency. Australian venues store USD, shown in AUD at the day's
 * rate rounded up to the nearest 100 (none without a rate); the product is rounded to 6 places first, so a float error
 * such as 1500.0000000002 does not round up a whole step.
 */
function shownAmount(v: Venue): number | null {
  if (v.startingTotal === null) return null;
  if (v.currency !== 'AUD') return v.startingTotal;
  if (audRate === null) return null;
  return Math.ceil(Math.round(v.startingTotal * audRate * 1e6) / 1e8) * 100;
}

/** §4.1, read from the venue's own fields. */
function matches(v: Venue, s: Search): boolean {
  const amount = shownAmount(v);
  const priced = s.priceMin === undefined && s.priceMax === undefined;
  return (
    (s.state === undefined || v.stateSlug === s.state.slug) &&
    (s.city === undefined || v.citySlug === s.city.slug) &&
    (s.venueType === undefined || (v.propertyType !== null && v.propertyType.toLowerCase().includes(s.venueType.trim().toLowerCase()))) &&
    (s.capacityMin === undefined || (v.capacityMax !== null && v.capacityMax >= s.capacityMin)) &&
    (s.capacityMax === undefined || (v.capacityMax !== null && v.capacityMax <= s.capacityMax)) &&
    (s.bedroomsMin === undefined || (v.bedrooms !== null && v.bedrooms >= s.bedroomsMin)) &&
    (s.amenities === undefined || s.amenities.every((a) => v.amenities.includes(a))) &&
    (priced || (amount !== null && (s.priceMin === undefined || amount >= s.priceMin) && (s.priceMax === undefined || amount <= s.priceMax)))
  );
}

/** The search's arguments by their GraphQL names (REST's are their snake_case). */
function argumentsOf(s: Search): Record<string, string | number | string[]> {
  const args: Record<string, string | number | string[]> = {};
  for (const [key, value] of Object.entries(s))
    if (value !== undefined) args[key] = typeof value === 'object' && 'sent' in value ? value.sent : value;
  return args;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const queryOf = (args: Record<string, string | number | string[]>) =>
  Object.entries(args)
    .map(([key, value]) => `${snake(key)}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`)
    .join('&');

interface PageRead {
  slugs: string[];
  total: number;
  more: boolean;
  cursor: string | null;
  /** The request id and body, printed when an assertion on the page fails. */
  context: string;
}

const contextOf = (res: TestResponse) => `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 400)}`;

const VENUES = `query($state: String, $city: String, $venueType: String, $capacityMin: Int, $capacityMax: Int, $bedroomsMin: Int,
                  $amenities: [String!], $priceMin: Float, $priceMax: Float, $first: Int, $after: String) {
  venues(state: $state, city: $city, venueType: $venueType, capacityMin: $capacityMin, capacityMax: $capacityMax, bedroomsMin: $bedroomsMin,
         amenities: $amenities, priceMin: $priceMin, priceMax: $priceMax, first: $first, after: $after) {
    totalCount nodes { slug } pageInfo { hasNextPage endCursor }
  }
}`;

const SURFACES = {
  async rest(args: Record<string, string | number | string[]>, first: number, cursor: string | null): Promise<PageRead> {
    // REST has no empty list: no amenity is the parameter left out.
    const { amenities, ...rest } = args;
    const sent = Array.isArray(amenities) && amenities.length === 0 ? rest : args;
    const res = await t.rest(`/api/v1/venues?${queryOf({ ...sent, limit: first })}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(res.status, contextOf(res)).toBe(200);
    const { data, pagination } = res.body;
    return {
      slugs: data.map((v: { slug: string }) => v.slug),
      total: pagination.total_count,
      more: pagination.has_more,
      cursor: pagination.next_cursor,
      context: contextOf(res),
    };
  },
  async graphql(args: Record<string, string | number | string[]>, first: number, cursor: string | null): Promise<PageRead> {
    const res = await t.graphql(VENUES, { ...args, first, ...(cursor === null ? {} : { after: cursor }) });
    expect(res.body.errors, contextOf(res)).toBeUndefined();
    const { nodes, totalCount, pageInfo } = res.body.data.venues;
    return {
      slugs: nodes.map((v: { slug: string }) => v.slug),
      total: totalCount,
      more: pageInfo.hasNextPage,
      cursor: pageInfo.endCursor,
      context: contextOf(res),
    };
  },
};

type Surface = keyof typeof SURFACES;

/**
 * Walks a whole search: `sizes` for the first pages, then 100 a page (a cursor carries a position, not a size), so a
 * walk of the whole catalogue stays a few requests. Each page must be the reference's next slice, with the whole count
 * and hasNextPage as the reference has them; past the last page the count is read alone and must not change.
 */
async function expectWalk(surface: Surface, s: Search, sizes: number[]) {
  const args = argumentsOf(s);
  const expected = venues.filter((v) => matches(v, s)).map((v) => v.slug);
  const walked: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; ; i++) {
    const first = sizes[i] ?? 100;
    const page: PageRead = await SURFACES[surface](args, first, cursor);
    const context = `${surface} ${queryOf(args)}, page ${i + 1} of ${first} after ${walked.length}: ${page.context}`;
    expect(page.slugs, context).toEqual(expected.slice(walked.length, walked.length + first));
    expect(page.total, context).toBe(expected.length);
    walked.push(...page.slugs);
    expect(page.more, context).toBe(walked.length < expected.length);
    cursor = page.cursor;
    if (!page.more) break;
  }
  expect(walked, `${surface} ${queryOf(args)}: every venue once, in slug order`).toEqual(expected);
  if (cursor !== null) {
    const past = await SURFACES[surface](args, 1 + (sizes[0] % 3), cursor);
    expect({ slugs: past.slugs, total: past.total, more: past.more }, `${surface} ${queryOf(args)}, past the end: ${past.context}`).toEqual({
      slugs: [],
      total: expected.length,
      more: false,
    });
  }
  return expected.length;
}

/** Left out 6 times in 10; when set, taken from the pivot venue (a hit) three times as often as a miss. */
const sometimes = <T>(hit: fc.Arbitrary<T>, miss: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: hit }, { weight: 1, arbitrary: miss });

/** The search with the two bounds swapped when the lower is above the upper (the search refuses that: venues.rest.test.ts). */
function ordered(s: Search, low: 'capacityMin' | 'priceMin', high: 'capacityMax' | 'priceMax'): Search {
  const [a, b] = [s[low], s[high]];
  return a !== undefined && b !== undefined && a > b ? { ...s, [low]: b, [high]: a } : s;
}

/** A band around an amount: each bound often on it, else moved by a whole or fractional step, or left open (not both). */
const bandAround = (amount: number) => {
  const bound = (steps: number[]) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.constantFrom(...steps) },
      { weight: 2, arbitrary: fc.constant(undefined) },
    );
  return fc
    .record({
      priceMin: bound([0.25, 0.5, 1, 99.9, 100, 2500]).map((d) => (d === undefined ? d : Math.max(0, amount - d))),
      priceMax: bound([0.5, 0.75, 1, 100.5, 5000]).map((d) => (d === undefined ? d : amount + d)),
    })
    .map(({ priceMin, priceMax }) => (priceMin === undefined && priceMax === undefined ? { priceMax: amount } : { priceMin, priceMax }));
};

/**
 * Searches around a pivot venue, so that combinations find venues: each filter left out, taken from the pivot, or a
 * value that may find none. Half of them set only amenities and a price band, the shapes the special paths answer
 * (no filter, amenities alone, a band alone or with one amenity), which a draw of every filter would seldom make.
 * Amenities come from the whole catalogue (unpublished venues' too), and one no venue lists.
 */
function searchArbitrary(amenityNames: string[]): fc.Arbitrary<Search> {
  const converted = venues.flatMap((v, i) => (v.currency === 'AUD' ? [i] : []));
  const pivot = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: venues.length - 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(...converted) },
  );
  return pivot.chain((i) => {
    const v = venues[i];
    const amount = shownAmount(v);
    const band = fc.oneof(
      { weight: 3, arbitrary: bandAround(amount ?? 5000) },
      {
        weight: 1,
        arbitrary: fc.record({ priceMin: fc.integer({ min: 0, max: 40_000 }), priceMax: fc.integer({ min: 0, max: 60_000 }).map((n) => n + 0.5) }),
      },
    );
    const amenities = fc.oneof(
      fc.subarray(v.amenities, { maxLength: Math.min(4, v.amenities.length) }),
      fc.array(fc.constantFrom(...v.amenities, ...amenityNames, 'no-such-amenity'), { maxLength: 4 }),
    );
    const shaped = fc.oneof(
      fc.constant({}),
      amenities.map((list) => ({ amenities: list })),
      fc
        .record({ band, amenity: fc.option(fc.constantFrom(...v.amenities, 'no-such-amenity'), { nil: undefined }) })
        .map(({ band, amenity }) => ordered({ ...band, ...(amenity && { amenities: [amenity] }) }, 'priceMin', 'priceMax')),
    );
    return fc.oneof(shaped, anyFilters(v, amenities, band));
  });
}

/** Every filter left out, from the pivot `v`, or a miss. */
function anyFilters(v: Venue, amenities: fc.Arbitrary<string[]>, band: fc.Arbitrary<Pick<Search, 'priceMin' | 'priceMax'>>): fc.Arbitrary<Search> {
  const type = v.propertyType ?? 'Villa';
  return fc
    .record({
      state: sometimes(
        fc.constantFrom(
          { sent: v.stateSlug, slug: v.stateSlug },
          { sent: v.state, slug: v.stateSlug },
          { sent: v.stateSlug.toUpperCase(), slug: v.stateSlug },
        ),
        fc.constant({ sent: 'Atlantis', slug: 'atlantis' }),
      ),
      city: sometimes(
        fc.constantFrom({ sent: v.citySlug, slug: v.citySlug }, { sent: v.city, slug: v.citySlug }),
        fc.constant({ sent: 'Nowhere', slug: 'nowhere' }),
      ),
      venueType: sometimes(
        fc
          .tuple(fc.nat(type.length - 1), fc.integer({ min: 1, max: 8 }))
          .map(([start, length]) => type.slice(start, start + length))
          .filter((text) => text.trim() !== '')
          .chain((text) => fc.constantFrom(text, text.toUpperCase(), text.toLowerCase())),
        fc.constantFrom('zzz', '%', '_', 'a%e', 'villa', 'barn'),
      ),
      capacityMin: sometimes(
        fc.integer({ min: -3, max: 0 }).map((d) => Math.max(0, (v.capacityMax ?? 10) + d)),
        fc.integer({ min: 0, max: 10_000 }),
      ),
      capacityMax: sometimes(
        fc.integer({ min: 0, max: 3 }).map((d) => (v.capacityMax ?? 10) + d),
        fc.integer({ min: 0, max: 60 }),
      ),
      bedroomsMin: sometimes(
        fc.integer({ min: -2, max: 0 }).map((d) => Math.max(0, (v.bedrooms ?? 3) + d)),
        fc.integer({ min: 0, max: 1_000 }),
      ),
      amenities: sometimes(amenities, amenities),
      band: sometimes(band, band),
    })
    .map(({ band, ...s }) => ordered(ordered({ ...s, ...band }, 'capacityMin', 'capacityMax'), 'priceMin', 'priceMax'));
}

/** Searches each SEARCH_STRATEGIES row answers, and the general path beside them: run before the random ones. */
const STRATEGY_EXAMPLES: Array<[Search, number[], Surface]> = [
  [{}, [20, 3], 'rest'],
  [{ amenities: ['pool'] }, [7], 'graphql'],
  [{ amenities: ['hot-tub', 'pool'] }, [50], 'rest'],
  [{ amenities: ['wifi', 'pool', 'wifi'] }, [13], 'graphql'],
  [{ amenities: ['pool', 'no-such-amenity'] }, [5], 'rest'],
  [{ amenities: ['pool', 'hot-tub', 'wifi'] }, [100], 'graphql'],
  [{ priceMin: 3000, priceMax: 9000 }, [40], 'rest'],
  [{ priceMin: 2999.5, priceMax: 9000.25, amenities: ['pool'] }, [9], 'graphql'],
  [{ priceMax: 4000.75, amenities: ['no-such-amenity'] }, [1], 'rest'],
  [{ priceMin: 20_000 }, [100], 'graphql'],
  [{ state: { sent: 'texas', slug: 'texas' }, capacityMin: 10, amenities: ['pool', 'hot-tub'] }, [2], 'rest'],
];

/** Bands whose bounds are a venue's shown amount, in its own currency and in a converted one, alone and with its amenity. */
function boundExamples(): Array<[Search, number[], Surface]> {
  const priced = ['USD', 'AUD'].map((currency) => venues.find((v) => v.currency === currency && shownAmount(v) !== null && v.amenities.length > 0)!);
  return priced.flatMap((v) => {
    const amount = shownAmount(v)!;
    return [
      [{ priceMin: amount, priceMax: amount }, [3], 'rest'],
      [{ priceMax: amount, amenities: [v.amenities[0]] }, [2], 'graphql'],
      [{ priceMin: amount, amenities: [v.amenities[0]] }, [100], 'rest'],
    ];
  });
}

const RUNS = Math.min(Number(process.env.PROPERTY_RUNS ?? 50), 300);

describe('venue search: any filter combination, walked by cursor, as the reference computes it', () => {
  it('gives every page and every total of the reference on REST and GraphQL', { timeout: 60_000 + RUNS * 3_000 }, async () => {
    const catalogue = await t.db.prisma.venue.findMany({ select: { amenities: true } });
    const amenityNames = [...new Set(catalogue.flatMap((v) => v.amenities))].sort();
    let found = 0;
    await fc.assert(
      fc.asyncProperty(
        searchArbitrary(amenityNames),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<Surface>('rest', 'graphql'),
        async (search, sizes, surface) => {
          if ((await expectWalk(surface, search, sizes)) > 0) found++;
        },
      ),
      { numRuns: RUNS, examples: [...STRATEGY_EXAMPLES, ...boundExamples()] },
    );
    // The generator meets venues, not only empty searches.
    expect(found).toBeGreaterThan((RUNS + STRATEGY_EXAMPLES.length) / 3);
  });

  it('has the edges the reference must meet: converted prices on the day, and every strategy example finding venues', async () => {
    expect(audRate).not.toBeNull();
    expect(venues.some((v) => v.currency === 'AUD' && v.startingTotal !== null)).toBe(true);
    for (const [search] of STRATEGY_EXAMPLES.filter(([s]) => !JSON.stringify(s).includes('no-such')))
      expect(venues.filter((v) => matches(v, search)).length, JSON.stringify(search)).toBeGreaterThan(0);
  });
});
