import type { RowReader } from '../db/row-reader.js';
import type { VenueDetailRow, VenueSelection } from './venue-rows.js';
import { ApiError } from '../errors/api-error.js';
import { parseInput } from '../errors/validation.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import type { Page } from '../pagination/page.js';
import { VenueSearchInput, VenueSlug } from './venues.inputs.js';
import { STORED_AS, storedBoundsFor, type DayRate } from './venue-pricing.js';
import { countSearch, planVenueSearch, readSearchPage, readVenueDetail, readVenuesById, type PriceRanges } from './venues.queries.js';

export interface VenueDeps {
  readRows: RowReader;
  cursors: CursorCodec;
  /** The day's rate for a pair such as "USD:AUD" (per-request loader). */
  dayRate: (pair: string) => Promise<DayRate | null>;
}

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
): Promise<Page<T>> {
  const { first, after, ...filters } = parseInput(VenueSearchInput, rawInput);
  const scope = filterScope('venues', filters);
  const afterSlug = after === undefined ? undefined : slugPosition(deps.cursors.decode(after, scope, 'after'));
  const { priceMin, priceMax } = filters;
  const prices = priceMin === undefined && priceMax === undefined ? null : await priceRanges({ min: priceMin, max: priceMax }, deps);
  const plan = planVenueSearch({ filters, prices });
  const page = await readSearchPage<T>(plan, { selection, afterSlug, first, withTotal: countWithPage }, deps.readRows);
  const counted = page.total;
  return {
    nodes: page.rows,
    hasNextPage: page.more,
    hasPreviousPage: afterSlug !== undefined,
    cursorOf: (v) => deps.cursors.encode([v.slug], scope),
    // A page with no row carries no count: none from the start means none at all; past the end, it is counted alone.
    totalCount:
      counted !== undefined
        ? () => Promise.resolve(counted)
        : countWithPage && afterSlug === undefined
          ? () => Promise.resolve(0)
          : () => countSearch(plan, deps.readRows),
  };
}

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
