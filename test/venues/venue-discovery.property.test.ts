// Venue discovery (near, near_city, radius_km, bbox, q, sort, facets) beside the §4.1 filters, walked whole through
// REST and GraphQL page by page through their cursors, and held to a reference computed in JavaScript from the venue
// rows as Prisma reads them (test/venues/discovery-reference.ts): the same venues in the same order, each once, the
// same total, the same distances and the same facet counts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp, type TestResponse } from '../support/app.js';
import {
  DiscoveryReference,
  FACET_NAMES,
  editDistance,
  greatCircleKm,
  oneDecimal,
  sevenDecimals,
  wordsOf,
  type Discovery,
  type Expected,
  type ExpectedFacets,
  type Facet,
  type Filters,
  type Place,
  type Row,
  type Sort,
} from './discovery-reference.js';
import { FACETS } from '../../src/venues/venues.rest.js';
import { WORDS_WALK } from '../../src/venues/venues.queries.js';

const TODAY = new Date('2026-06-15T12:00:00Z');

let t: TestApp;
let ref: DiscoveryReference;

/** The newest rate of a pair dated on or before the test clock's day. */
async function dayRate(base: string, quote: string): Promise<number | null> {
  const row = await t.db.prisma.exchangeRate.findFirst({
    where: { base, quote, rateDate: { lte: new Date(TODAY.toISOString().slice(0, 10)) } },
    orderBy: { rateDate: 'desc' },
  });
  return row?.rate ?? null;
}

beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
  // Every venue row, published or not (the words of all make the vocabulary), in the database's slug order.
  const catalogue = await t.db.prisma.venue.findMany({ orderBy: { slug: 'asc' } });
  ref = new DiscoveryReference(catalogue, { usdAud: await dayRate('USD', 'AUD'), eurUsd: await dayRate('EUR', 'USD') });
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------------------------------
// Requests

/** A number as a plain decimal (the REST parameters take no exponent). */
const plain = (n: number) => n.toFixed(7).replace(/\.?0+$/, '');

/** The search's REST query string (snake_case, lists comma-separated). */
function restQuery(s: Discovery): string {
  const f = s.filters;
  const params: Array<[string, string | number | undefined]> = [
    ['state', f.state?.sent],
    ['city', f.city?.sent],
    ['venue_type', f.venueType],
    ['capacity_min', f.capacityMin],
    ['capacity_max', f.capacityMax],
    ['bedrooms_min', f.bedroomsMin],
    // REST has no empty list: no amenity is the parameter left out.
    ['amenities', f.amenities?.length ? f.amenities.join(',') : undefined],
    ['price_min', f.priceMin === undefined ? undefined : plain(f.priceMin)],
    ['price_max', f.priceMax === undefined ? undefined : plain(f.priceMax)],
    ['near', s.place?.kind === 'near' ? `${plain(s.place.lat)},${plain(s.place.lng)}` : undefined],
    ['near_city', s.place?.kind === 'city' ? s.place.sent : undefined],
    [
      'radius_km',
      s.place?.kind === 'near' || s.place?.kind === 'city' ? (s.place.radiusKm === undefined ? undefined : plain(s.place.radiusKm)) : undefined,
    ],
    ['bbox', s.place?.kind === 'bbox' ? s.place.box.map(plain).join(',') : undefined],
    ['q', s.q],
    ['sort', s.sort],
    ['facets', s.facets?.join(',')],
  ];
  return params
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** The search's GraphQL variables (closed sets as enum names). */
function graphqlVariables(s: Discovery): Record<string, unknown> {
  const f = s.filters;
  const place = s.place;
  const vars: Record<string, unknown> = {
    state: f.state?.sent,
    city: f.city?.sent,
    venueType: f.venueType,
    capacityMin: f.capacityMin,
    capacityMax: f.capacityMax,
    bedroomsMin: f.bedroomsMin,
    amenities: f.amenities,
    priceMin: f.priceMin,
    priceMax: f.priceMax,
    near: place?.kind === 'near' ? [place.lat, place.lng] : undefined,
    nearCity: place?.kind === 'city' ? place.sent : undefined,
    radiusKm: place?.kind === 'near' || place?.kind === 'city' ? place.radiusKm : undefined,
    bbox: place?.kind === 'bbox' ? place.box : undefined,
    q: s.q,
    sort: s.sort?.toUpperCase(),
    facets: s.facets?.map((name) => name.toUpperCase()),
  };
  return Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined));
}

const VENUES = `query($state: String, $city: String, $venueType: String, $capacityMin: Int, $capacityMax: Int, $bedroomsMin: Int,
    $amenities: [String!], $priceMin: Float, $priceMax: Float, $near: [Float!], $nearCity: String, $radiusKm: Float, $bbox: [Float!],
    $q: String, $sort: VenueSort, $facets: [VenueFacet!], $first: Int, $after: String) {
  venues(state: $state, city: $city, venueType: $venueType, capacityMin: $capacityMin, capacityMax: $capacityMax, bedroomsMin: $bedroomsMin,
         amenities: $amenities, priceMin: $priceMin, priceMax: $priceMax, near: $near, nearCity: $nearCity, radiusKm: $radiusKm,
         bbox: $bbox, q: $q, sort: $sort, facets: $facets, first: $first, after: $after) {
    totalCount
    nodes { slug distanceKm }
    pageInfo { hasNextPage endCursor }
    ${FACETS}
  }
}`;

/** One page as either surface answers it: distances undefined where the item has none. */
interface PageRead {
  slugs: string[];
  distances: Array<number | null | undefined>;
  total: number;
  more: boolean;
  cursor: string | null;
  /** As the surface shows them: REST only the facets asked for (snake_case), GraphQL all five (null unless asked). */
  facets: unknown;
  context: string;
}

const contextOf = (res: TestResponse) => `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 600)}`;

const SURFACES = {
  async rest(s: Discovery, first: number, cursor: string | null): Promise<PageRead> {
    const query = [restQuery(s), `limit=${first}`, ...(cursor === null ? [] : [`cursor=${encodeURIComponent(cursor)}`])].filter(Boolean).join('&');
    const res = await t.rest(`/api/v1/venues?${query}`);
    expect(res.status, contextOf(res)).toBe(200);
    const { data, pagination } = res.body;
    return {
      slugs: data.map((v: { slug: string }) => v.slug),
      distances: data.map((v: { distance_km?: number }) => v.distance_km),
      total: pagination.total_count,
      more: pagination.has_more,
      cursor: pagination.next_cursor,
      facets: res.body.facets,
      context: contextOf(res),
    };
  },
  async graphql(s: Discovery, first: number, cursor: string | null): Promise<PageRead> {
    const res = await t.graphql(VENUES, { ...graphqlVariables(s), first, ...(cursor === null ? {} : { after: cursor }) });
    expect(res.body.errors, contextOf(res)).toBeUndefined();
    const { nodes, totalCount, pageInfo, facets } = res.body.data.venues;
    return {
      slugs: nodes.map((v: { slug: string }) => v.slug),
      distances: nodes.map((v: { distanceKm: number | null }) => v.distanceKm),
      total: totalCount,
      more: pageInfo.hasNextPage,
      cursor: pageInfo.endCursor,
      facets,
      context: contextOf(res),
    };
  },
};
type Surface = keyof typeof SURFACES;

const SNAKE: Record<keyof ExpectedFacets, Facet> = {
  venueType: 'venue_type',
  amenities: 'amenities',
  state: 'state',
  priceBand: 'price_band',
  capacityBand: 'capacity_band',
};

/** The facets as a surface shows them: GraphQL every field (null unless asked), REST the asked ones, absent without. */
function facetsShown(surface: Surface, facets: ExpectedFacets | null): unknown {
  if (surface === 'graphql') return facets;
  if (facets === null) return undefined;
  return Object.fromEntries(
    Object.entries(facets)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [SNAKE[k as keyof ExpectedFacets], v]),
  );
}

/** Whether a distance is within 1e-6 km of a point where its 1-decimal rounding changes. */
const nearRoundingEdge = (km: number) => Math.abs(km * 10 - Math.floor(km * 10) - 0.5) < 1e-5;

/**
 * Walks a whole search on a surface: `sizes` for the first pages, then 10 to 100 a page. Every page is the reference's next
 * slice with its total, distances and facets; no venue comes twice; past the last page nothing more comes.
 */
async function expectWalk(surface: Surface, s: Discovery, expected: Expected, sizes: number[]) {
  const shownFacets = facetsShown(surface, expected.facets);
  // Past the given sizes, pages that walk the whole in about eight.
  const later = Math.min(100, Math.max(10, Math.ceil(expected.slugs.length / 8)));
  const walked: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; ; i++) {
    const first = sizes[i] ?? later;
    const page: PageRead = await SURFACES[surface](s, first, cursor);
    const context = `${surface} ${restQuery(s)}, page ${i + 1} of ${first} after ${walked.length}: ${page.context}`;
    expect(page.slugs, context).toEqual(expected.slugs.slice(walked.length, walked.length + first));
    expect(page.total, context).toBe(expected.slugs.length);
    expect(page.facets, context).toEqual(shownFacets);
    page.slugs.forEach((slug, j) => {
      const shown = page.distances[j];
      if (expected.distances === null) {
        expect(shown, `${context}: ${slug} has no distance`).toBe(surface === 'rest' ? undefined : null);
        return;
      }
      const km = expected.distances.get(slug)!;
      if (nearRoundingEdge(km)) expect(Math.abs(shown! - oneDecimal(km)), `${context}: ${slug} at ${km} km`).toBeLessThanOrEqual(0.1 + 1e-9);
      else expect(shown, `${context}: ${slug} at ${km} km`).toBe(oneDecimal(km));
    });
    walked.push(...page.slugs);
    expect(page.more, context).toBe(walked.length < expected.slugs.length);
    cursor = page.cursor;
    if (!page.more) break;
  }
  expect(new Set(walked).size, `${surface} ${restQuery(s)}: no venue twice`).toBe(walked.length);
  expect(walked, `${surface} ${restQuery(s)}: every venue once, in order`).toEqual(expected.slugs);
  if (cursor !== null) {
    const past = await SURFACES[surface](s, 1 + (sizes[0] % 3), cursor);
    expect({ slugs: past.slugs, total: past.total, more: past.more }, `${surface} ${restQuery(s)}, past the end: ${past.context}`).toEqual({
      slugs: [],
      total: expected.slugs.length,
      more: false,
    });
  }
}

/**
 * The reference's answer, or a skipped case where the database may rightly differ from it by a rounding error: a
 * venue within 1e-6 km of the radius, or (in distance order) two venues at distances too close to order for sure.
 */
function expectedOrSkip(s: Discovery): Expected {
  const expected = ref.search(s);
  const circle = expected.circle;
  if (circle) {
    for (const r of ref.rows) {
      const { latitude: lat, longitude: lng } = r.venue;
      if (lat === null || lng === null) continue;
      fc.pre(Math.abs(greatCircleKm(circle.lat, circle.lng, lat, lng) - circle.radiusKm) > 1e-6);
    }
  }
  // Two venues at (nearly) the same distance may be a mirror image about the point, which the database may compute a
  // last bit apart.
  if (s.sort === 'distance') for (let i = 1; i < expected.keys.length; i++) fc.pre(Math.abs(expected.keys[i]! - expected.keys[i - 1]!) > 1e-9);
  return expected;
}

// ---------------------------------------------------------------------------------------------------------------------
// Generated searches

/** Left out most of the time; when set, from the pivot venue (a hit) three times as often as a value that may miss. */
const sometimes = <T>(hit: fc.Arbitrary<T>, miss: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: hit }, { weight: 1, arbitrary: miss });

/** Degrees `base` moved by `from` to `to` degrees (often not at all), in whole 1e-7 steps (what the API keeps), within ±limit. */
const degreesNear = (base: number, from: number, to: number, limit: number) =>
  fc
    .oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.integer({ min: Math.round(from * 1e7), max: Math.round(to * 1e7) }) })
    .map((steps) => Math.max(-limit * 1e7, Math.min(limit * 1e7, Math.round(base * 1e7) + steps)) / 1e7);

const radiusKm = fc.option(
  fc.oneof(
    fc.constantFrom(1, 5, 10, 25, 50, 100, 250, 500),
    fc.integer({ min: 1, max: 500 }),
    fc.integer({ min: 1000, max: 500_000 }).map((n) => n / 1000),
  ),
  { nil: undefined, freq: 3 },
);

/** Where to search, around the pivot venue (or anywhere, or nowhere). */
function placeArbitrary(pivot: Row): fc.Arbitrary<Place | undefined> {
  const { latitude, longitude, citySlug, city } = pivot.venue;
  const [lat, lng] = [latitude!, longitude!];
  const cityNames = [citySlug, city, city.toUpperCase(), city.toLowerCase(), ` ${city} `];
  const anyDegrees = (limit: number) =>
    fc.oneof(
      fc.integer({ min: -limit * 1e7, max: limit * 1e7 }).map((n) => n / 1e7),
      fc.constantFrom(-limit, limit, 0),
    );
  // Latitudes around the venue's, mostly one each side of it (or on it: the edges are inclusive), in either order.
  const latitudes = fc
    .tuple(degreesNear(lat, -1.5, 0.1, 90), degreesNear(lat, -0.1, 1.5, 90), fc.boolean())
    .map(([low, high, swap]) => (swap ? [high, low] : [low, high]));
  const box = (minLng: fc.Arbitrary<number>, maxLng: fc.Arbitrary<number>) =>
    fc
      .tuple(minLng, latitudes, maxLng)
      .map(([minLng, [lat1, lat2], maxLng]) => ({ kind: 'bbox' as const, box: [minLng, lat1, maxLng, lat2] as [number, number, number, number] }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 5,
      arbitrary: fc
        .constantFrom(0.05, 0.4)
        .chain((spread) => fc.record({ lat: degreesNear(lat, -spread, spread, 90), lng: degreesNear(lng, -spread, spread, 180), radiusKm }))
        .map(({ lat, lng, radiusKm }) => ({ kind: 'near' as const, lat, lng, radiusKm })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({ sent: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...cityNames) }, fc.constantFrom('Portland', 'woodstock')), radiusKm })
        .map(({ sent, radiusKm }) => ({ kind: 'city' as const, sent, radiusKm })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ lat: anyDegrees(90), lng: anyDegrees(180), radiusKm })
        .map(({ lat, lng, radiusKm }) => ({ kind: 'near' as const, lat, lng, radiusKm })),
    },
    // A box around the venue (its edges may be the venue's own coordinates: they are inclusive).
    { weight: 3, arbitrary: box(degreesNear(lng, -2, 0.1, 180), degreesNear(lng, -0.1, 2, 180)) },
    {
      // minLng above maxLng: the box crosses the antimeridian, holding the venue east of minLng.
      weight: 1,
      arbitrary: box(
        degreesNear(lng, -1, 0, 180),
        fc.integer({ min: 0, max: 999 }).map((permille) => Math.round((-180 + ((lng - 1 + 180) * permille) / 1000) * 1e7) / 1e7),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(anyDegrees(180), anyDegrees(90), anyDegrees(180), anyDegrees(90)).map((box) => ({ kind: 'bbox' as const, box })),
    },
  );
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');

/** A word with one slip: a letter added, dropped or changed, or two neighbours swapped. */
const slipped = (word: string) =>
  fc
    .record({ kind: fc.constantFrom('insert', 'delete', 'substitute', 'swap'), at: fc.nat(word.length - 1), letter: fc.constantFrom(...LETTERS) })
    .map(({ kind, at, letter }) => {
      switch (kind) {
        case 'insert':
          return word.slice(0, at) + letter + word.slice(at);
        case 'delete':
          return word.slice(0, at) + word.slice(at + 1);
        case 'substitute':
          return word.slice(0, at) + letter + word.slice(at + 1);
        default:
          return at + 1 < word.length
            ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)
            : word.slice(0, at - 1) + word[at] + word[at - 1];
      }
    });

/**
 * Words to look for: the pivot's (as written or as words), sometimes any catalogue word; one or two (three now and
 * then: only then can a misspelt match in the description change an order), some slipped.
 */
function qArbitrary(pivot: Row): fc.Arbitrary<string | undefined> {
  const written = `${pivot.venue.name} ${pivot.venue.city}`.split(/\s+/).filter((w) => wordsOf(w).length > 0);
  // From each place a word can be found in (each scores differently), as written, or any word of the catalogue.
  const word = fc.oneof(
    ...[pivot.name, pivot.name, pivot.place, pivot.kind, pivot.description, pivot.description]
      .filter((words) => words.size > 0)
      .map((words) => fc.constantFrom(...words)),
    fc.constantFrom(...written),
    fc.constantFrom(...ref.vocabulary),
  );
  const maybeSlipped = word.chain((w) => (w.length >= 5 && /^[a-z0-9]+$/.test(w) ? fc.oneof(fc.constant(w), slipped(w)) : fc.constant(w)));
  const style = fc.constantFrom(
    (w: string) => w,
    (w: string) => w.toUpperCase(),
    (w: string) => w.charAt(0).toUpperCase() + w.slice(1),
  );
  return fc.option(
    fc
      .tuple(
        fc.oneof(
          ...[5, 4, 1].map((weight, i) => ({ weight, arbitrary: fc.array(fc.tuple(maybeSlipped, style), { minLength: i + 1, maxLength: i + 1 }) })),
        ),
        fc.constantFrom(' ', ', ', '  ', ' & ', '-'),
      )
      .map(([words, joiner]) => words.map(([w, styled]) => styled(w)).join(joiner))
      .filter((q) => q.trim().length >= 2 && q.length <= 100 && wordsOf(q).length > 0),
    { nil: undefined, freq: 2 },
  );
}

/** Swaps two bounds given the wrong way round (the search refuses that). */
function ordered(f: Filters, low: 'capacityMin' | 'priceMin', high: 'capacityMax' | 'priceMax'): Filters {
  const [a, b] = [f[low], f[high]];
  return a !== undefined && b !== undefined && a > b ? { ...f, [low]: b, [high]: a } : f;
}

/** Some §4.1 filters: mostly left out, else from the pivot venue or a value that may miss. */
function filtersArbitrary(pivot: Row): fc.Arbitrary<Filters> {
  const v = pivot.venue;
  const type = v.propertyType ?? 'Villa';
  const amount = pivot.shown ?? 5000;
  return fc
    .record({
      state: sometimes(
        fc.constantFrom({ sent: v.stateSlug, slug: v.stateSlug }, { sent: v.state, slug: v.stateSlug }),
        fc.constant({ sent: 'Atlantis', slug: 'atlantis' }),
      ),
      city: sometimes(
        fc.constantFrom({ sent: v.citySlug, slug: v.citySlug }, { sent: v.city, slug: v.citySlug }),
        fc.constant({ sent: 'Nowhere', slug: 'nowhere' }),
      ),
      venueType: sometimes(
        fc
          .tuple(fc.nat(type.length - 1), fc.integer({ min: 2, max: 8 }))
          .map(([start, length]) => type.slice(start, start + length))
          .filter((text) => text.trim() !== ''),
        fc.constantFrom('villa', 'barn', 'zzz'),
      ),
      capacityMin: sometimes(
        fc.integer({ min: -3, max: 0 }).map((d) => Math.max(0, (v.capacityMax ?? 10) + d)),
        fc.integer({ min: 0, max: 60 }),
      ),
      capacityMax: sometimes(
        fc.integer({ min: 0, max: 3 }).map((d) => (v.capacityMax ?? 10) + d),
        fc.integer({ min: 0, max: 60 }),
      ),
      bedroomsMin: sometimes(
        fc.integer({ min: -2, max: 0 }).map((d) => Math.max(0, (v.bedrooms ?? 3) + d)),
        fc.integer({ min: 0, max: 30 }),
      ),
      amenities: sometimes(
        // A venue may list fewer than two amenities (or none: then the constants below stand in).
        v.amenities.length ? fc.subarray(v.amenities, { minLength: 1, maxLength: Math.min(2, v.amenities.length) }) : fc.constant<string[]>(['pool']),
        fc.constantFrom<string[]>(['pool'], ['hot-tub', 'pool'], ['no-such-amenity']),
      ),
      priceMin: sometimes(fc.constantFrom(amount, Math.max(0, amount - 100), Math.max(0, amount - 0.5)), fc.integer({ min: 0, max: 40_000 })),
      priceMax: sometimes(fc.constantFrom(amount, amount + 100, amount + 0.5), fc.integer({ min: 0, max: 60_000 })),
    })
    .map((f) => ordered(ordered(f, 'capacityMin', 'capacityMax'), 'priceMin', 'priceMax'));
}

/** A whole discovery search around a venue with coordinates. */
function discoveryArbitrary(): fc.Arbitrary<Discovery> {
  const pivots = ref.rows.filter((r) => r.venue.latitude !== null && r.venue.longitude !== null);
  return fc.constantFrom(...pivots).chain((pivot) =>
    fc
      .record({
        place: placeArbitrary(pivot),
        q: qArbitrary(pivot),
        filters: filtersArbitrary(pivot),
        facets: fc.option(
          fc.oneof(
            { weight: 4, arbitrary: fc.shuffledSubarray([...FACET_NAMES], { minLength: 1 }) },
            { weight: 1, arbitrary: fc.constant<Facet[]>([...FACET_NAMES]) },
            // A name twice counts once.
            { weight: 1, arbitrary: fc.shuffledSubarray([...FACET_NAMES], { minLength: 1, maxLength: 4 }).map((names) => [...names, names[0]]) },
          ),
          { nil: undefined, freq: 2 },
        ),
        bare: fc.integer({ min: 0, max: 9 }),
      })
      // A search with neither place nor words reads far; most searches have one or the other.
      .filter(({ place, q, bare }) => place !== undefined || q !== undefined || bare < 3)
      .chain(({ bare: _bare, ...s }) => {
        const point = s.place?.kind === 'near' || s.place?.kind === 'city';
        const sorts: Array<Sort | undefined> = [undefined, 'recommended', 'price_asc', 'price_desc', 'capacity_desc'];
        if (point) sorts.push('distance', 'distance');
        if (s.q !== undefined) sorts.push('relevance', 'relevance');
        return fc.constantFrom(...sorts).map((sort) => ({ ...s, ...(sort === undefined ? {} : { sort }) }));
      }),
  );
}

/** Pages of a few venues mostly, so that most walks cross pages; sometimes up to the 100 a page can have. */
const pageSize = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 5 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 100 }) });

const RUNS = Math.min(Number(process.env.PROPERTY_RUNS ?? 50), 300);

describe('venue discovery: any place, words, order and facets with the §4.1 filters, walked by cursor, as the reference computes it', () => {
  it('has the rates of the test day and a vocabulary the database agrees with', async () => {
    expect(ref.rates.usdAud).not.toBeNull();
    expect(ref.rates.eurUsd).not.toBeNull();
    const terms = await t.db.readRows<{ term: string }>(`SELECT term FROM "VenueSearchTerm"`, []);
    expect(terms.map((r) => r.term).sort()).toEqual(ref.vocabulary);
  });

  it('tokenizes, measures edits and distances as the rules say (the reference checked by hand)', () => {
    expect(wordsOf('Château Bellefleur')).toEqual(['chateau', 'bellefleur']);
    expect(wordsOf("Rocca Sant'Anna")).toEqual(['rocca', 'sant', 'anna']);
    expect(wordsOf('  San José del CABO, Ñandú — 2nd   floor!! ')).toEqual(['san', 'jose', 'del', 'cabo', 'nandu', '2nd', 'floor']);
    expect(wordsOf('hot-tub,POOL')).toEqual(['hot', 'tub', 'pool']);
    expect(wordsOf('!!')).toEqual([]);
    expect(wordsOf('ÀÉÎÕÜ ç')).toEqual(['aeiou', 'c']);
    expect(editDistance('tuscany', 'tuscany')).toBe(0);
    expect(editDistance('tuscanny', 'tuscany')).toBe(1);
    expect(editDistance('tusacny', 'tuscany')).toBe(1);
    expect(editDistance('tuscan', 'tuscany')).toBe(1);
    expect(editDistance('tuscbny', 'tuscany')).toBe(1);
    expect(editDistance('utscany', 'tuscany')).toBe(1);
    expect(editDistance('tsucany', 'tuscany')).toBe(1);
    expect(editDistance('tuscna', 'tuscany')).toBe(2);
    expect(editDistance('ca', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(greatCircleKm(0, 0, 0, 0)).toBe(0);
    // A degree of latitude is 2πR/360 km; the antipode half the circumference.
    expect(greatCircleKm(10, 20, 11, 20)).toBeCloseTo((2 * Math.PI * 6371.0088) / 360, 9);
    expect(greatCircleKm(0, 0, 0, 180)).toBeCloseTo(Math.PI * 6371.0088, 9);
    expect(greatCircleKm(0, 179.5, 0, -179.5)).toBeCloseTo((2 * Math.PI * 6371.0088) / 360, 9);
    expect(sevenDecimals(35.123456789)).toBe(35.1234568);
    expect(oneDecimal(12.25)).toBe(12.3);
  });

  it('gives every page, total, distance and facet of the reference on REST and GraphQL', { timeout: 60_000 + RUNS * 4_000 }, async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(discoveryArbitrary(), fc.array(pageSize, { minLength: 1, maxLength: 3 }), async (s, sizes) => {
        const expected = expectedOrSkip(s);
        if (expected.slugs.length > 0) found++;
        await expectWalk('rest', s, expected, sizes);
        await expectWalk('graphql', s, expected, sizes);
      }),
      { numRuns: RUNS },
    );
    // The generator meets venues, not only empty searches.
    expect(found).toBeGreaterThan(RUNS / 3);
  });

  // Filters alone are counted over the catalogue's facet columns in memory, not in SQL: held here to the reference
  // more often than the walk above meets them, every facet asked for, on both surfaces' first page.
  it(
    'counts every facet of filters alone as the reference does, each facet leaving out its own filter',
    { timeout: 60_000 + RUNS * 1_000 },
    async () => {
      const facets = [...FACET_NAMES];
      let owned = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ref.rows).chain((pivot) => filtersArbitrary(pivot)),
          async (filters) => {
            const s: Discovery = { filters, facets };
            const { facets: expected, slugs } = ref.search(s);
            if (Object.values(filters).some((value) => value !== undefined)) owned++;
            const [rest, graphql] = [await SURFACES.rest(s, 1, null), await SURFACES.graphql(s, 1, null)];
            expect(rest.facets, rest.context).toEqual(facetsShown('rest', expected));
            expect(graphql.facets, graphql.context).toEqual(facetsShown('graphql', expected));
            // The total is counted with the facets.
            expect(rest.total, rest.context).toBe(slugs.length);
            expect(graphql.total, graphql.context).toBe(slugs.length);
          },
        ),
        { numRuns: RUNS * 2 },
      );
      // Most searches set a filter some facet owns or keeps.
      expect(owned).toBeGreaterThan(RUNS);
    },
  );
});

describe('venue discovery: the total of filters alone with facets', () => {
  it('is counted with the facets in memory: the page reads no count, on REST and GraphQL', async () => {
    const statements: string[] = [];
    const s: Discovery = { filters: { capacityMin: 10 }, facets: ['state'] };
    const expected = ref.search(s).slugs.length;
    expect(expected).toBeGreaterThan(5);
    // Once to read the facet columns, then as any later search is read.
    await SURFACES.rest(s, 5, null);
    const stop = t.db.onQuery((event) => statements.push(event.query));
    try {
      for (const surface of ['rest', 'graphql'] as const) {
        const page = await SURFACES[surface](s, 5, null);
        expect(page.total, page.context).toBe(expected);
        expect(page.slugs).toEqual(ref.search(s).slugs.slice(0, 5));
      }
    } finally {
      stop();
    }
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => /count\(/i.test(sql))).toEqual([]);
  });
});

describe('venue discovery: words', () => {
  const tuscany = () => ref.rows.filter((r) => r.venue.stateSlug === 'tuscany').map((r) => r.venue.slug);

  it('finds the Tuscany venues through one slip (tuscanny), as the reference does', async () => {
    expect(ref.typosOf('tuscanny')).toContain('tuscany');
    expect(tuscany().length).toBeGreaterThan(5);
    for (const sort of [undefined, 'relevance'] as const) {
      const s: Discovery = { filters: {}, q: 'tuscanny', sort };
      const expected = ref.search(s);
      expect(expected.slugs).toEqual(expect.arrayContaining(tuscany()));
      await expectWalk('rest', s, expected, [7]);
      await expectWalk('graphql', s, expected, [7]);
    }
  });

  it('answers Tuscany, TUSCANY and tuscany alike', async () => {
    const walk = async (q: string, surface: Surface) => {
      const s: Discovery = { filters: {}, q, sort: 'relevance', facets: ['state'] };
      const expected = ref.search(s);
      await expectWalk(surface, s, expected, [10]);
      return expected;
    };
    const [lower, title, upper] = [await walk('tuscany', 'rest'), await walk('Tuscany', 'rest'), await walk('TUSCANY', 'graphql')];
    expect(title).toEqual(lower);
    expect(upper).toEqual(lower);
    expect(lower.slugs).toEqual(expect.arrayContaining(tuscany()));
  });
});

describe('venue discovery: words alone, walked in slug order or sorted (venues.queries.ts wordsAloneSearch)', () => {
  // A page of 10 reads 11 rows. The walk is tried when the matches are dense enough for those 11 to lie, on average,
  // within a quarter of the rows it may walk, and gives way to the sorted matches when they do not.
  const PAGE = 10;
  const rankOf = new Map<string, number>();
  beforeAll(() => ref.rows.forEach((r) => rankOf.set(r.venue.slug, r.rank)));
  const words = () =>
    [...new Set(ref.rows.flatMap((r) => [...r.words]))]
      .filter((q) => q.length >= 2)
      .sort()
      .map((q) => {
        const expected = ref.search({ filters: {}, q });
        const dense = expected.slugs.length * WORDS_WALK.rows >= ref.rows.length * (PAGE + 1) * WORDS_WALK.expectedShare;
        // Where the walk from the first venue would find the page's last row read (all rows count, published or not).
        const reach = rankOf.get(expected.slugs[PAGE] ?? '') ?? Infinity;
        return { q, expected, dense, reach };
      });

  it('walks dense words, gives way when their matches lie past the walk, and sorts sparse ones, as the reference finds', async () => {
    const all = words().filter((w) => w.expected.slugs.length > PAGE);
    const walked = all.find((w) => w.dense && w.reach < WORDS_WALK.rows);
    const givenWay = all.find((w) => w.dense && w.reach >= WORDS_WALK.rows && w.reach !== Infinity);
    const sorted = all.find((w) => !w.dense);
    for (const [name, w] of Object.entries({ walked, givenWay, sorted })) {
      expect(w, `a word the catalogue has for the ${name} page`).toBeDefined();
      const s: Discovery = { filters: {}, q: w!.q };
      await expectWalk('rest', s, w!.expected, [PAGE]);
      await expectWalk('graphql', s, w!.expected, [PAGE]);
    }
  });
});

describe('venue discovery: refused parameters', () => {
  const REFUSED: Array<[string, string, Record<string, unknown>, string]> = [
    ['near=91,0', 'near', { near: [91, 0] }, 'near'],
    ['near=0,181', 'near', { near: [0, 181] }, 'near'],
    ['near=-91,0', 'near', { near: [-91, 0] }, 'near'],
    ['near=0,-181', 'near', { near: [0, -181] }, 'near'],
    ['near=35.6,-82.55&radius_km=0', 'radius_km', { near: [35.6, -82.55], radiusKm: 0 }, 'radiusKm'],
    ['near=35.6,-82.55&radius_km=501', 'radius_km', { near: [35.6, -82.55], radiusKm: 501 }, 'radiusKm'],
    ['near=35.6,-82.55&radius_km=0.5', 'radius_km', { near: [35.6, -82.55], radiusKm: 0.5 }, 'radiusKm'],
    ['radius_km=10', 'radius_km', { radiusKm: 10 }, 'radiusKm'],
    ['sort=distance', 'sort', { sort: 'DISTANCE' }, 'sort'],
    ['bbox=10,40,12,44&sort=distance', 'sort', { bbox: [10, 40, 12, 44], sort: 'DISTANCE' }, 'sort'],
    ['sort=relevance', 'sort', { sort: 'RELEVANCE' }, 'sort'],
    ['near=35.6,-82.55&sort=relevance', 'sort', { near: [35.6, -82.55], sort: 'RELEVANCE' }, 'sort'],
    ['q=a', 'q', { q: 'a' }, 'q'],
    ['q=%20a%20', 'q', { q: ' a ' }, 'q'],
    ['q=!!', 'q', { q: '!!' }, 'q'],
    ['q=!!&sort=relevance', 'q', { q: '!!', sort: 'RELEVANCE' }, 'q'],
    ['near=1,2,3', 'near', { near: [1, 2, 3] }, 'near'],
    ['bbox=1,2,3', 'bbox', { bbox: [1, 2, 3] }, 'bbox'],
    ['bbox=0,91,1,0', 'bbox', { bbox: [0, 91, 1, 0] }, 'bbox'],
    ['bbox=10,40,12,44&near=43,11', 'bbox', { bbox: [10, 40, 12, 44], near: [43, 11] }, 'bbox'],
    ['near_city=siena&near=43,11', 'near_city', { nearCity: 'siena', near: [43, 11] }, 'nearCity'],
    ['near_city=Atlantis', 'near_city', { nearCity: 'Atlantis' }, 'nearCity'],
  ];

  it.each([
    ['sort=nearest', 'sort'],
    ['facets=colour', 'facets'],
    ['near=1e1,2', 'near'],
    ['near=35.6,-82.55&radius_km=1e2', 'radius_km'],
  ])('REST %s → 400 naming %s', async (query, param) => {
    expectRestError(await t.rest(`/api/v1/venues?${query}`), 400, 'invalid_parameters', param);
  });

  it.each(REFUSED)('REST %s → 400 naming %s', async (query, param) => {
    expectRestError(await t.rest(`/api/v1/venues?${query}`), 400, 'invalid_parameters', param);
  });

  it.each(REFUSED)('GraphQL for %s → invalid_parameters naming the argument', async (_query, _param, variables, argument) => {
    expectGraphQLError(await t.graphql(VENUES, variables), 'invalid_parameters', argument);
  });

  it('accepts radius_km 1 and 500, the bounds themselves', async () => {
    const { latitude, longitude } = ref.rows.find((r) => r.venue.stateSlug === 'tuscany' && r.venue.latitude !== null)!.venue;
    for (const radiusKm of [1, 500]) {
      const s: Discovery = { filters: {}, place: { kind: 'near', lat: latitude!, lng: longitude!, radiusKm }, sort: 'distance', facets: ['state'] };
      const expected = ref.search(s);
      expect(expected.slugs.length, `${radiusKm} km`).toBeGreaterThan(radiusKm === 1 ? 0 : 50);
      await expectWalk('rest', s, expected, [100]);
      await expectWalk('graphql', s, expected, [100]);
    }
  });
});

describe('venue discovery: orders', () => {
  it('walks the whole catalogue in every order without a place or words, the venues without a key last', async () => {
    const unpriced = ref.rows.filter((r) => r.usd === null);
    expect(unpriced.length).toBeGreaterThan(0);
    for (const sort of ['price_asc', 'price_desc', 'capacity_desc'] as const) {
      const s: Discovery = { filters: {}, sort };
      const expected = ref.search(s);
      expect(expected.slugs).toHaveLength(ref.rows.length);
      if (sort !== 'capacity_desc') expect(expected.slugs.slice(-unpriced.length).sort()).toEqual(unpriced.map((r) => r.venue.slug).sort());
      await expectWalk('rest', s, expected, [100]);
      await expectWalk('graphql', s, expected, [97]);
    }
  });

  it('pages one venue at a time across equal keys and into the unpriced venues', async () => {
    // The state with the most venues without a price.
    const byState = new Map<string, Row[]>();
    for (const r of ref.rows) byState.set(r.venue.stateSlug, [...(byState.get(r.venue.stateSlug) ?? []), r]);
    const [state] = [...byState].sort(([, a], [, b]) => b.filter((r) => r.usd === null).length - a.filter((r) => r.usd === null).length)[0];
    for (const sort of ['price_asc', 'price_desc', 'capacity_desc'] as const) {
      const s: Discovery = { filters: { state: { sent: state, slug: state } }, sort, facets: ['price_band'] };
      const expected = ref.search(s);
      if (sort !== 'capacity_desc') expect(expected.keys).toContain(null);
      await expectWalk('rest', s, expected, Array(Math.min(expected.slugs.length, 40)).fill(1));
      await expectWalk('graphql', s, expected, [2, 1, 3]);
    }
  });
});

describe('venue discovery: cursors', () => {
  it('refuses a cursor of one order in another, or for another point or words', async () => {
    const first = await t.rest('/api/v1/venues?near_city=siena&sort=distance&limit=2');
    expect(first.status, first.text).toBe(200);
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    for (const other of [
      'near_city=siena&sort=price_asc',
      'near_city=lucca&sort=distance',
      'near_city=siena&sort=distance&q=villa',
      'near_city=siena',
    ])
      expectRestError(await t.rest(`/api/v1/venues?${other}&limit=2&cursor=${cursor}`), 400, 'invalid_cursor', 'cursor');
    // sort=recommended is the default order named: a cursor of one pages the other.
    const plain = await t.rest('/api/v1/venues?near_city=siena&limit=2');
    const walkedOn = await t.rest(
      `/api/v1/venues?near_city=siena&sort=recommended&limit=2&cursor=${encodeURIComponent(plain.body.pagination.next_cursor)}`,
    );
    expect(walkedOn.status, walkedOn.text).toBe(200);
    expect(walkedOn.body.data.map((v: { slug: string }) => v.slug)).toEqual(
      ref.search({ filters: {}, place: { kind: 'city', sent: 'siena' } }).slugs.slice(2, 4),
    );
    // The facets asked for are no part of the search: the cursor walks on with them.
    const next = await t.rest(`/api/v1/venues?near_city=siena&sort=distance&limit=2&facets=state&cursor=${cursor}`);
    expect(next.status, next.text).toBe(200);
  });
});
