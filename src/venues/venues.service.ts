import { PLAN_FOR_VALUES, type RowReader } from '../db/row-reader.js';
import { likeEscaped } from '../db/like-pattern.js';
import { venueColumns, venueDetailStatement, venueRow, type VenueDetailRow, type VenueSelection } from './venue-rows.js';
import { ApiError } from '../errors/api-error.js';
import { slugify } from '../catalogue/slug.js';
import { parseInput } from '../errors/validation.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import type { Page } from '../graphql/connection.js';
import { VenueSearchInput, VenueSlug } from './venues.inputs.js';
import { STORED_AS, storedBoundsFor, type DayRate } from './venue-pricing.js';

export interface VenueDeps {
  readRows: RowReader;
  cursors: CursorCodec;
  /** The day's rate for a pair such as "USD:AUD" (per-request loader). */
  dayRate: (pair: string) => Promise<DayRate | null>;
}

/**
 * §4.1 venue search: published venues only, ordered by slug (stable: slugs are unique), keyset-paginated with a
 * signed cursor bound to the filters. totalCount counts the whole filtered set. When the caller will ask for it
 * (`countWithPage`), the count is a column of the page's own statement, as the hand-written baseline reads it: one
 * statement fewer per search, which the embedded database runs one at a time. `selection`: what GraphQL's plan selects
 * of each venue (venue-rows.ts).
 */
export async function searchVenues<T extends { slug: string }>(
  rawInput: unknown,
  selection: VenueSelection | undefined,
  deps: VenueDeps,
  { countWithPage = false }: { countWithPage?: boolean } = {},
): Promise<Page<T>> {
  const input = parseInput(VenueSearchInput, rawInput);
  const { first, after, ...filters } = input;
  const scope = filterScope('venues', filters);
  const afterSlug = after === undefined ? undefined : slugPosition(deps.cursors.decode(after, scope, 'after'));
  const amenity = soleAmenity(filters);
  const search = amenity ? listedAmenitySearch(amenity) : await venueSearch(filters, deps);

  const { values, param } = sqlParams();
  const total = countWithPage ? `, ${search.total(param)}::int AS "${TOTAL}"` : '';
  const rows = await deps.readRows<Record<string, unknown>>(
    `SELECT ${venueColumns(selection)}${total} ${search.rows(param, afterSlug, first + 1)}`,
    values,
    PLAN_FOR_VALUES,
  );
  const counted = rows[0]?.[TOTAL] as number | undefined;
  const hasNextPage = rows.length > first;
  const nodes = (hasNextPage ? rows.slice(0, first) : rows).map((row) => venueRow(countWithPage ? withoutTotal(row) : row)) as T[];
  return {
    nodes,
    hasNextPage,
    hasPreviousPage: afterSlug !== undefined,
    cursorOf: (v) => deps.cursors.encode([v.slug], scope),
    // A page with no row carries no count: none from the start means none at all; past the end, it is counted alone.
    totalCount:
      counted !== undefined
        ? () => Promise.resolve(counted)
        : countWithPage && afterSlug === undefined
          ? () => Promise.resolve(0)
          : () => countAlone(search, deps.readRows),
  };
}

/** The page statement's column holding the count (no Venue column has the name). */
const TOTAL = 'totalCount';

function withoutTotal({ [TOTAL]: _total, ...row }: Record<string, unknown>) {
  return row;
}

async function countAlone(search: VenueSearchPlan, readRows: RowReader): Promise<number> {
  const { values, param } = sqlParams();
  const [{ total }] = await readRows<{ total: number }>(`SELECT ${search.total(param)}::int AS total`, values, PLAN_FOR_VALUES);
  return total;
}

type VenueFilters = Omit<ReturnType<typeof VenueSearchInput.parse>, 'first' | 'after'>;

/** Adds a parameter to the statement being written and gives its placeholder. */
type Param = (value: unknown) => string;

/**
 * One search as SQL, written with the statement's `param`: a page of its rows in slug order after a slug (FROM to LIMIT), and
 * the exact count of the whole set as a scalar subquery, which can stand in the page's select list or alone.
 */
interface VenueSearchPlan {
  rows: (param: Param, afterSlug: string | undefined, limit: number) => string;
  total: (param: Param) => string;
}

/** SQL parameters as a statement is written: `param(value)` adds one and gives its placeholder. */
function sqlParams() {
  const values: unknown[] = [];
  return { values, param: (value: unknown) => `$${values.push(value)}` };
}

async function venueSearch(filters: VenueFilters, deps: VenueDeps): Promise<VenueSearchPlan> {
  const { priceMin, priceMax } = filters;
  // Read once: the page's price filter and a price band's count are written from the same converted bands.
  const prices = priceMin === undefined && priceMax === undefined ? null : await priceRanges({ min: priceMin, max: priceMax }, deps);
  const where = (param: Param) => ['v.published', ...venueConditions(filters, prices, param)].join(' AND ');
  const bandAmenity = prices ? soleBandAmenity(filters) : undefined;
  const amenities = soleAmenities(filters);
  const unfiltered = onlyFilters(filters);
  return {
    rows: (param, afterSlug, limit) => {
      const page = `FROM "Venue" v WHERE ${where(param)}${afterSlug === undefined ? '' : ` AND v.slug > ${param(afterSlug)}`} ORDER BY v.slug LIMIT ${param(limit)}`;
      // With filters, the page's slugs are found first and only its rows are read: the (published, slug, …) index
      // carries the filtered columns (a state's and a city's own indexes are in slug order), so walking slug order
      // tests index entries, where it read thousands of venue rows to find a page of a rare type on a large catalogue
      // (docs/performance.md, Scale).
      return unfiltered ? page : `FROM (SELECT v.slug ${page}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY v.slug`;
    },
    total:
      prices && bandAmenity !== undefined
        ? (param) => priceBandCount(prices, bandAmenity, param)
        : unfiltered
          ? () => PUBLISHED_VENUES
          : amenities?.length === 2
            ? (param) => countedPair(amenities, param)
            : amenities
              ? (param) => listedTogetherCount(amenities, param)
              : // The subquery's own alias v hides the page's: the count is computed once, not per row.
                (param) => `(SELECT count(*) FROM "Venue" v WHERE ${where(param)})`,
  };
}

/**
 * Every published venue, and those listing both of two amenities, are counted in PublishedVenueCount, which triggers
 * on Venue keep in the writer's transaction (migration published_venue_counts): one row instead of counting 96,044
 * index entries, or intersecting two amenities' 36,000 venues each, on the 100,000-venue catalogue
 * (docs/performance.md, Scale). A pair that no venue has ever listed together has no row.
 */
const PUBLISHED_VENUES = `(SELECT venues FROM "PublishedVenueCount" WHERE amenity = '' AND "otherAmenity" = '')`;

function countedPair([one, other]: string[], param: Param): string {
  const [a, b] = [param(one), param(other)];
  return `coalesce((SELECT venues FROM "PublishedVenueCount" WHERE amenity = least(${a}::text, ${b}::text) AND "otherAmenity" = greatest(${a}::text, ${b}::text)), 0)`;
}

/**
 * The amenities of a search whose only filter is 2 to 8 amenities, else null. Up to PostgreSQL's join_collapse_limit
 * (8) the planner still orders listedTogetherCount's joins; more amenities keep the GIN intersection.
 */
function soleAmenities(filters: VenueFilters): string[] | null {
  const amenities = filters.amenities && [...new Set(filters.amenities)];
  return amenities && amenities.length >= 2 && amenities.length <= 8 && onlyFilters(filters, 'amenities') ? amenities : null;
}

/** Whether every filter of the search other than `keys` is unset. */
function onlyFilters(filters: VenueFilters, ...keys: Array<keyof VenueFilters>): boolean {
  return Object.entries(filters).every(([key, value]) => value === undefined || keys.includes(key as keyof VenueFilters));
}

/**
 * The exact count of published venues listing every one of `amenities`: ListedVenueAmenity's key (amenity, slug)
 * joined with itself by slug, each amenity's slugs read in order from the index alone (a merge join). The GIN index on
 * Venue.amenities finds the same venues but rechecks each row: pool with hot-tub on the 100,000-venue catalogue,
 * 11,542 venues, counted in ~9 ms instead of ~30 (docs/performance.md, Scale).
 */
function listedTogetherCount([first, ...others]: string[], param: Param): string {
  const joins = others.map(
    (amenity, i) => ` JOIN "ListedVenueAmenity" a${i + 1} ON a${i + 1}.slug = a0.slug AND a${i + 1}.amenity = ${param(amenity)}`,
  );
  return `(SELECT count(*) FROM "ListedVenueAmenity" a0${joins.join('')} WHERE a0.amenity = ${param(first)})`;
}

/**
 * For a price band whose other filter is one amenity or none (priceBandCount counts it): that amenity, or null;
 * undefined for any other search.
 */
function soleBandAmenity(filters: VenueFilters): string | null | undefined {
  const { amenities } = filters;
  if ((amenities && amenities.length !== 1) || !onlyFilters(filters, 'priceMin', 'priceMax', 'amenities')) return undefined;
  return amenities?.[0] ?? null;
}

/** The amenity of a search whose one filter is one amenity, else null. */
function soleAmenity(filters: VenueFilters): string | null {
  const { amenities } = filters;
  return amenities?.length === 1 && onlyFilters(filters, 'amenities') ? amenities[0] : null;
}

/**
 * A search whose one filter is one amenity reads ListedVenueAmenity (the published venues' amenities, keyed by amenity
 * and slug): its page and its exact count come from that key alone, in slug order, and each venue row is joined in the
 * same statement. A GIN index on Venue.amenities cannot count without reading every matching row, and a rare amenity is
 * found late in slug order. Beside other filters the amenity is a condition on the venue rows (venueConditions), which
 * the other filters' indexes narrow first: driving such a search from this table measured 67–170 ms on the
 * 100,000-venue catalogue (docs/performance.md, Scale).
 */
function listedAmenitySearch(amenity: string): VenueSearchPlan {
  return {
    rows: (param, afterSlug, limit) =>
      `FROM "ListedVenueAmenity" la JOIN "Venue" v ON v.slug = la.slug WHERE la.amenity = ${param(amenity)}${
        afterSlug === undefined ? '' : ` AND la.slug > ${param(afterSlug)}`
      } ORDER BY la.slug LIMIT ${param(limit)}`,
    total: (param) => `(SELECT count(*) FROM "ListedVenueAmenity" WHERE amenity = ${param(amenity)})`,
  };
}

function slugPosition(position: unknown[]): string {
  if (typeof position[0] !== 'string') throw new ApiError('invalid_cursor', { param: 'after' });
  return position[0];
}

/**
 * The §4.1 filters as SQL conditions on a venue row `v`, besides being published (`prices`: the band's ranges, if
 * any; `param` adds a parameter and gives its placeholder).
 */
function venueConditions(f: VenueFilters, prices: PriceRanges | null, param: Param): string[] {
  const and: string[] = [];
  if (f.state) and.push(`v."stateSlug" = ${param(slugify(f.state))}`);
  if (f.city) and.push(`v."citySlug" = ${param(slugify(f.city))}`);
  // A substring of the property type, matched against the ~120 distinct names and joined back by an index (migration
  // search_lookup_tables says why): the same ILIKE on the same text as testing every venue row. The text is matched
  // as written: % and _ are escaped, not wildcards.
  if (f.venueType) and.push(`v."propertyType" IN (SELECT name FROM "VenuePropertyType" WHERE name ILIKE ${param(`%${likeEscaped(f.venueType)}%`)})`);
  // Capacity bounds compare with the venue's sleeping capacity (capacity_max): "sleeps at least / at most N".
  if (f.capacityMin !== undefined) and.push(`v."capacityMax" >= ${param(f.capacityMin)}`);
  if (f.capacityMax !== undefined) and.push(`v."capacityMax" <= ${param(f.capacityMax)}`);
  if (f.bedroomsMin !== undefined) and.push(`v.bedrooms >= ${param(f.bedroomsMin)}`);
  // Tested in the index entries that carry them: those of a state, a venue type and slug order (migrations
  // amenities_in_state_and_type_indexes, covering_slug_index), or intersected from the GIN index on them.
  if (f.amenities?.length) and.push(`v.amenities @> ${param(f.amenities)}::text[]`);
  if (prices) and.push(priceFilter(prices, param));
  return and;
}

type PriceBounds = { min?: number; max?: number };
type StoredRange = { gte?: number; lte?: number };
type PriceRanges = { own: StoredRange; converted: Array<{ currency: string; range: StoredRange | null }> };

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

/** `column` within a stored range, as SQL conditions joined by AND (none for an open range). */
function inRange(column: string, { gte, lte }: StoredRange, param: Param): string[] {
  return [...(gte === undefined ? [] : [`${column} >= ${param(gte)}`]), ...(lte === undefined ? [] : [`${column} <= ${param(lte)}`])];
}

function priceFilter({ own, converted }: PriceRanges, param: Param): string {
  const ranges = [own, ...converted.flatMap((c) => (c.range ? [c.range] : []))];
  const branch = (currency: string, range: StoredRange) => [currency, ...inRange('v."startingTotal"', range, param)].join(' AND ');
  const or = [
    branch(`v.currency <> ALL(${param(converted.map((c) => c.currency))}::text[])`, own),
    ...converted.flatMap((c) => (c.range ? [branch(`v.currency = ${param(c.currency)}`, c.range)] : [])),
  ];
  // The stored amounts all of the OR's branches lie between, stated once more: it selects nothing the OR does not, but
  // it is a single range the planner can scan on the (published, startingTotal, currency, …) index, counting a wide band
  // from the index alone instead of reading every published venue (docs/performance.md, Scale). An unpriced venue
  // (no startingTotal) is in no range, and the envelope always has a bound: a band has a minimum or a maximum.
  const envelope = {
    gte: own.gte === undefined ? undefined : Math.min(...ranges.map((r) => r.gte ?? 0)),
    lte: own.lte === undefined ? undefined : Math.max(...ranges.map((r) => r.lte ?? 0)),
  };
  return `${inRange('v."startingTotal"', envelope, param).join(' AND ')} AND (${or.map((b) => `(${b})`).join(' OR ')})`;
}

/**
 * The exact count of published venues in a price band (with one amenity: of those listing it), in one statement of
 * plain range counts: every venue whose stored amount is in the band, less each converted currency's venues in it
 * (their amounts are stored in another currency), plus each converted currency's venues in its own stored band. The
 * set is priceFilter's OR, but each term is one range of an index with nothing to test per entry: (published,
 * startingTotal) and (published, currency, startingTotal) of Venue, or (amenity, startingTotal) and (amenity, currency,
 * startingTotal) of ListedVenueAmenity. On the 100,000-venue catalogue the very wide band counts in ~5 ms instead of
 * ~16, and pool with a band without joining 35,763 listed venues to 23,679 priced ones (docs/performance.md, Scale).
 */
function priceBandCount({ own, converted }: PriceRanges, amenity: string | null, param: Param): string {
  const from = amenity === null ? `"Venue" WHERE published` : `"ListedVenueAmenity" WHERE amenity = ${param(amenity)}`;
  const count = (currency: string | null, range: StoredRange) =>
    `(SELECT count(*) FROM ${[from, ...(currency === null ? [] : [`currency = ${param(currency)}`]), ...inRange('"startingTotal"', range, param)].join(' AND ')})`;
  const terms = [count(null, own)];
  for (const { currency, range } of converted) {
    terms.push(` - ${count(currency, own)}`);
    if (range) terms.push(` + ${count(currency, range)}`);
  }
  return `(${terms.join('')})`;
}

/**
 * §4.2: one published venue by its full slug; invalid_slug for impossible characters, venue_not_found otherwise.
 * `selection`: what the GraphQL plan selects; without one, every column is read.
 */
export async function getVenue(rawSlug: unknown, deps: Pick<VenueDeps, 'readRows'>, selection?: VenueSelection): Promise<VenueDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  if (!VenueSlug.safeParse(slug).success) throw new ApiError('invalid_slug', { param: 'slug' });
  const [venue] = await deps.readRows<VenueDetailRow>(venueDetailStatement(selection), [slug]);
  if (!venue) throw new ApiError('venue_not_found', { param: 'slug', message: `No published venue has the slug '${slug}'.` });
  return venueRow(venue);
}

/** Venues by id for node(id:)/nodes(ids:): published ones only, as search and detail show (one statement). */
export async function visibleVenuesById(ids: string[], selection: VenueSelection | undefined, deps: Pick<VenueDeps, 'readRows'>) {
  const rows = await deps.readRows(`SELECT ${venueColumns(selection)} FROM "Venue" v WHERE v.id = ANY($1::uuid[]) AND v.published`, [ids]);
  return rows.map(venueRow);
}
