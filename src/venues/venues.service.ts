import type { RowReader } from '../db/row-reader.js';
import type { VenueDetailRow, VenueSelection } from './venue-rows.js';
import { ApiError } from '../errors/api-error.js';
import { parseInput } from '../errors/validation.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import type { Page } from '../pagination/page.js';
import { DEFAULT_RADIUS_KM, VenueSearchInput, VenueSlug, type VenueFacet, type VenueSearch } from './venues.inputs.js';
import { STORED_AS, storedBoundsFor, VENUE_CURRENCIES, type DayRate } from './venue-pricing.js';
import {
  countSearch,
  planVenueSearch,
  readPlaceAndWordsMatches,
  readPropertyTypesLike,
  readSearchPage,
  readVenueDetail,
  readVenuesById,
  type FacetRow,
  type PriceRanges,
  type SearchOrder,
  type SearchPlace,
  type SearchPosition,
  type SearchRequest,
  type ShowRates,
} from './venues.queries.js';
import { catalogueCities, catalogueFacetIndex, findCity, searchVocabulary } from './venue-places.js';
import { queryWords } from './venue-words.js';
import { venueFacets, type VenueFacets } from './venue-facets.js';

export interface VenueDeps {
  readRows: RowReader;
  cursors: CursorCodec;
  /** The day's rate for a pair such as "USD:AUD" (per-request loader). */
  dayRate: (pair: string) => Promise<DayRate | null>;
  /** The catalogue's generation: the cities and words discovery reads are kept under it (venue-places.ts). @default () => 0 */
  generation?: () => number;
}

/** A search page, with the facets it was asked for (read with the page, in a statement of their own). */
export type VenueSearchPage<T> = Page<T> & { facets: () => Promise<VenueFacets | null> };

/**
 * §4.1 venue search: published venues only, ordered by slug (stable: slugs are unique), keyset-paginated with a
 * signed cursor bound to the filters. totalCount counts the whole filtered set. When the caller will ask for it
 * (`countWithPage`), the count is read with the page, as the hand-written baseline reads it (venues.queries.ts).
 * `selection`: what GraphQL's plan selects of each venue (venue-rows.ts).
 */
export async function searchVenues<T extends { slug: string }>(
  rawInput: unknown,
  selection: VenueSelection | undefined,
  deps: VenueDeps,
  { countWithPage = false }: { countWithPage?: boolean } = {},
): Promise<VenueSearchPage<T>> {
  const { first, after, facets, ...scoped } = parseInput(VenueSearchInput, rawInput);
  // The default order named is the default order: the same cursor pages both.
  if (scoped.sort === 'recommended') delete scoped.sort;
  // The cursor is bound to everything that chooses and orders the rows; the facets asked for change neither.
  const scope = filterScope('venues', scoped);
  const search = await searchRequest(scoped, deps);
  const position = after === undefined ? undefined : positionOf(deps.cursors.decode(after, scope, 'after'), search.order !== undefined);
  const plan = planVenueSearch(search, position);
  // A facet named twice is counted once (its rows would otherwise come twice).
  const facetRows = facets?.length ? countFacets(search, [...new Set(facets)], deps) : undefined;
  facetRows?.catch(() => undefined);
  // Facets are counted in memory, and the search's total with them: the page reads no count.
  const page = await readSearchPage<T>(plan, { selection, afterSlug: position?.slug, first, withTotal: countWithPage && !facetRows }, deps.readRows);
  const counted = page.total;
  const keyOf = page.keyOf;
  return {
    nodes: page.rows,
    hasNextPage: page.more,
    hasPreviousPage: position !== undefined,
    cursorOf: keyOf ? (v) => deps.cursors.encode([keyOf(v), v.slug], scope) : (v) => deps.cursors.encode([v.slug], scope),
    // A page with no row carries no count: none from the start means none at all; past the end, it is counted alone.
    totalCount:
      counted !== undefined
        ? () => Promise.resolve(counted)
        : facetRows
          ? async () => (await facetRows).total
          : countWithPage && position === undefined
            ? () => Promise.resolve(0)
            : () => countSearch(plan, deps.readRows),
    facets: async () => (facetRows ? venueFacets(facets as VenueFacet[], (await facetRows).rows) : null),
  };
}

type Scoped = Omit<VenueSearch, 'first' | 'after' | 'facets'>;

/**
 * The facets of a search and its total, counted over the catalogue's facet columns, read once per generation
 * (venue-facet-index.ts); with a place or words, over the venues they match.
 */
async function countFacets(search: SearchRequest, names: VenueFacet[], deps: VenueDeps): Promise<{ rows: FacetRow[]; total: number }> {
  const { venueType } = search.filters;
  const [rates, index, propertyTypes, within] = await Promise.all([
    showRates(deps),
    catalogueFacetIndex(deps.readRows, deps.generation?.() ?? 0),
    venueType === undefined ? null : readPropertyTypesLike(venueType, deps.readRows),
    search.place || search.words ? readPlaceAndWordsMatches(search, deps.readRows) : undefined,
  ]);
  return index.count(search, names, rates, propertyTypes, within);
}

/** A parsed search as the planner takes it: its filters, price band, place, words and order. */
async function searchRequest(input: Scoped, deps: VenueDeps): Promise<SearchRequest> {
  const { near, nearCity, radiusKm, bbox, q, sort, ...filters } = input;
  const { priceMin, priceMax } = filters;
  const [prices, place, words] = await Promise.all([
    priceMin === undefined && priceMax === undefined ? null : priceRanges({ min: priceMin, max: priceMax }, deps),
    placeOf({ near, nearCity, radiusKm, bbox }, deps),
    q === undefined ? undefined : searchVocabulary(deps.readRows, deps.generation?.() ?? 0).then((vocabulary) => queryWords(q, vocabulary)),
  ]);
  return { filters, prices, place, words, order: await orderOf(sort, deps) };
}

/**
 * Degrees to 7 decimals (about a centimetre): finer digits mean nothing for a venue, and a subnormal number such as
 * 5e-322 is not a PostgreSQL double precision.
 */
const degrees = (value: number) => Math.round(value * 1e7) / 1e7 || 0;

async function placeOf(
  { near, nearCity, radiusKm, bbox }: Pick<Scoped, 'near' | 'nearCity' | 'radiusKm' | 'bbox'>,
  deps: VenueDeps,
): Promise<SearchPlace | undefined> {
  if (bbox) {
    const [minLng, lat1, maxLng, lat2] = bbox.map(degrees);
    return { kind: 'box', minLng, minLat: Math.min(lat1, lat2), maxLng, maxLat: Math.max(lat1, lat2) };
  }
  const radius = radiusKm ?? DEFAULT_RADIUS_KM;
  if (near) return { kind: 'near', lat: degrees(near[0]), lng: degrees(near[1]), radiusKm: radius };
  if (nearCity === undefined) return undefined;
  const city = findCity(await catalogueCities(deps.readRows, deps.generation?.() ?? 0), nearCity);
  return { kind: 'near', lat: city.lat, lng: city.lng, radiusKm: radius };
}

/** The order of a search; slug order (recommended) is none. */
async function orderOf(sort: Scoped['sort'], deps: VenueDeps): Promise<SearchOrder | undefined> {
  switch (sort) {
    case undefined:
    case 'recommended':
      return undefined;
    case 'distance':
      return { by: 'distance' };
    case 'relevance':
      return { by: 'relevance' };
    case 'capacity_desc':
      return { by: 'capacity' };
    case 'price_asc':
    case 'price_desc':
      return { by: 'price', descending: sort === 'price_desc', usdPer: await usdPerStored(deps) };
  }
}

/** Per shown currency, what one unit of the amount it stores is worth in USD today (null without a rate). */
async function usdPerStored(deps: VenueDeps): Promise<Record<string, number | null>> {
  const entries = await Promise.all(
    VENUE_CURRENCIES.map(async (currency) => {
      const stored = STORED_AS[currency]?.stored ?? currency;
      if (stored === 'USD') return [currency, 1] as const;
      return [currency, (await deps.dayRate(`${stored}:USD`))?.rate ?? null] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Per currency shown converted (STORED_AS), the day's rate and rounding step; a price band counts the shown amount. */
async function showRates(deps: VenueDeps) {
  const entries = await Promise.all(
    Object.entries(STORED_AS).map(async ([currency, { stored, roundUpTo }]) => [
      currency,
      { rate: (await deps.dayRate(`${stored}:${currency}`))?.rate ?? null, roundUpTo },
    ]),
  );
  return Object.fromEntries(entries) as ShowRates;
}

/** A cursor's position: [slug] in slug order, [key, slug] in any other. */
function positionOf(position: unknown[], ordered: boolean): SearchPosition {
  if (!ordered) return { slug: slugPosition(position) };
  const [key, slug] = position;
  if (position.length !== 2 || typeof slug !== 'string' || (key !== null && typeof key !== 'number')) {
    throw new ApiError('invalid_cursor', { param: 'after' });
  }
  return { slug, key };
}

export type { FacetRow };

function slugPosition(position: unknown[]): string {
  if (typeof position[0] !== 'string') throw new ApiError('invalid_cursor', { param: 'after' });
  return position[0];
}

type PriceBounds = { min?: number; max?: number };

/**
 * §4.1 price bounds apply to pricing.starting_total.amount in each venue's own currency. Converted currencies
 * (AUD) are compared through the stored amounts that display inside the bounds (none on a day without a rate);
 * unpriced venues never match.
 */
async function priceRanges(bounds: PriceBounds, deps: VenueDeps): Promise<PriceRanges> {
  const converted = await Promise.all(
    Object.entries(STORED_AS).map(async ([currency, { stored, roundUpTo }]) => {
      const dayRate = await deps.dayRate(`${stored}:${currency}`);
      return { currency, range: dayRate ? storedBoundsFor(bounds, dayRate.rate, roundUpTo) : null };
    }),
  );
  // Stored amounts are whole units: a fractional bound selects what the whole number inside it selects, and as an
  // integer it stays a valid parameter for the integer column (1.5 was a type error in the band count's SQL).
  const own = {
    gte: bounds.min === undefined ? undefined : Math.ceil(bounds.min),
    lte: bounds.max === undefined ? undefined : Math.floor(bounds.max),
  };
  return { own, converted };
}

/**
 * §4.2: one published venue by its full slug; invalid_slug for impossible characters, venue_not_found otherwise.
 * `selection`: what the GraphQL plan selects; without one, every column is read.
 */
export async function getVenue(rawSlug: unknown, deps: Pick<VenueDeps, 'readRows'>, selection?: VenueSelection): Promise<VenueDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  if (!VenueSlug.safeParse(slug).success) throw new ApiError('invalid_slug', { param: 'slug' });
  const venue = await readVenueDetail(slug, selection, deps.readRows);
  if (!venue) throw new ApiError('venue_not_found', { param: 'slug', message: `No published venue has the slug '${slug}'.` });
  return venue;
}

/** Venues by id for node(id:)/nodes(ids:): published ones only, as search and detail show (one statement). */
export function visibleVenuesById(ids: string[], selection: VenueSelection | undefined, deps: Pick<VenueDeps, 'readRows'>) {
  return readVenuesById(ids, selection, deps.readRows);
}
