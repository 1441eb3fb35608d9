import { PLAN_FOR_VALUES, type RowReader } from '../db/row-reader.js';
import { likeEscaped } from '../db/like-pattern.js';
import { slugify } from '../catalogue/slug.js';
import { venueColumns, venueDetailStatement, venueRow, type VenueDetailRow, type VenueSelection } from './venue-rows.js';
import type { VenueSearch } from './venues.inputs.js';

/**
 * The venue module's reads: a search page and its count (§4.1), a venue by slug (§4.2), venues by id. Rows are read
 * through the driver, not Prisma's client (venue-rows.ts says why), and a search is planned for its parameters' values
 * (PLAN_FOR_VALUES): a narrow price band and a wide one want different indexes.
 */

/** The §4.1 filters of a search, as parsed. */
export type VenueFilters = Omit<VenueSearch, 'first' | 'after'>;

/** Stored amounts (whole units) from `gte` to `lte`; an open end is absent. */
export type StoredRange = { gte?: number; lte?: number };

/**
 * A price band as ranges of the stored column: `own` for venues shown in the currency they store, and for each
 * converted currency the stored amounts that display inside the band (null on a day without a rate: none match).
 */
export type PriceRanges = { own: StoredRange; converted: Array<{ currency: string; range: StoredRange | null }> };

/** What the planner plans from: the filters, and the band's stored ranges when the search has a price bound. */
export interface SearchRequest {
  filters: VenueFilters;
  prices: PriceRanges | null;
}

/** Adds a parameter to the statement being written and gives its placeholder. */
type Param = (value: unknown) => string;

/**
 * One search as SQL, written with the statement's `param`: a page of its rows in slug order after a slug (FROM to
 * LIMIT), and the exact count of the whole set as a scalar subquery, which can stand in the page's select list or alone.
 */
export interface VenueSearchPlan {
  rows: (param: Param, afterSlug: string | undefined, limit: number) => string;
  total: (param: Param) => string;
}

interface SearchStrategy {
  name: string;
  /** Whether the row answers the search. The rows are disjoint: no search meets two. */
  when: (search: SearchRequest) => boolean;
  /**
   * The gain measured on the 100,000-venue catalogue when the path was added (docs/performance.md, Scale, has the
   * method): the general path's time → this path's, median per request unless a statement is named.
   */
  measured: string;
  /** The page and the count it writes; a part it leaves out is the general path's. */
  sql: (search: SearchRequest) => Partial<VenueSearchPlan>;
}

/**
 * The searches not read by the general path, each kept for a measured gain of 2× or more over it. A path without such
 * a figure is not here: several amenities beyond two are counted by the general path (their join of the listed
 * amenities was measured only on a pair, which the count row now answers).
 */
const SEARCH_STRATEGIES: readonly SearchStrategy[] = [
  {
    name: 'no filter',
    when: ({ filters }) => onlyFilters(filters),
    measured: 'page 1 9.7–18 → 5 ms: the count is one row of PublishedVenueCount, not 96,044 index entries',
    // Nothing to test, so the page is the first rows of the slug index and needs no slug-first step.
    sql: () => ({ rows: (param, afterSlug, limit) => slugOrderPage('v.published', param, afterSlug, limit), total: () => PUBLISHED_VENUES }),
  },
  {
    name: 'one amenity alone',
    when: ({ filters }) => filters.amenities?.length === 1 && onlyFilters(filters, 'amenities'),
    measured: 'amenities=pool 25 → 8 ms, amenities=ocean-view 77 → 6 ms: page and count from the key of ListedVenueAmenity',
    sql: ({ filters }) => listedAmenitySearch(filters.amenities![0]),
  },
  {
    name: 'two amenities alone',
    when: ({ filters }) => distinctAmenities(filters).length === 2 && onlyFilters(filters, 'amenities'),
    measured: 'amenities=pool,hot-tub 15–22 → 4 ms: the count is one row of PublishedVenueCount, not two amenities intersected',
    sql: ({ filters }) => ({ total: (param) => countedPair(distinctAmenities(filters), param) }),
  },
  {
    name: 'price band, alone or with one amenity',
    when: ({ filters, prices }) =>
      prices !== null &&
      (filters.amenities === undefined || filters.amenities.length === 1) &&
      onlyFilters(filters, 'priceMin', 'priceMax', 'amenities'),
    measured: 'count statement of the very wide band ~16 → ~5 ms (its request 18.8 → ~10 ms); amenities=pool with a band 18.5 → ~5 ms',
    sql: ({ filters, prices }) => ({ total: (param) => priceBandCount(prices!, filters.amenities?.[0] ?? null, param) }),
  },
];

/** How a search is read: the one SEARCH_STRATEGIES row that answers it, else the general path. */
export function planVenueSearch(search: SearchRequest): VenueSearchPlan {
  const special = SEARCH_STRATEGIES.find((strategy) => strategy.when(search));
  return { ...generalSearch(search), ...special?.sql(search) };
}

/**
 * Any search: its page's slugs are found first and only its rows are read. The (published, slug, …) index carries the
 * filtered columns (a state's and a city's own indexes are in slug order), so walking slug order tests index entries
 * where it read venue rows: venue_type=castle tested 6,376 rows to find 21 on the 100,000-venue catalogue, 39.6 →
 * 4.5 ms. The count reads whatever index the filters narrow best.
 */
function generalSearch({ filters, prices }: SearchRequest): VenueSearchPlan {
  const where = (param: Param) => ['v.published', ...venueConditions(filters, prices, param)].join(' AND ');
  return {
    rows: (param, afterSlug, limit) =>
      `FROM (SELECT v.slug ${slugOrderPage(where(param), param, afterSlug, limit)}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY v.slug`,
    // The subquery's own alias v hides the page's: the count is computed once, not per row.
    total: (param) => `(SELECT count(*) FROM "Venue" v WHERE ${where(param)})`,
  };
}

/** Venues `v` meeting `where`, in slug order after a slug, `limit` of them (FROM to LIMIT). */
function slugOrderPage(where: string, param: Param, afterSlug: string | undefined, limit: number): string {
  return `FROM "Venue" v WHERE ${where}${afterSlug === undefined ? '' : ` AND v.slug > ${param(afterSlug)}`} ORDER BY v.slug LIMIT ${param(limit)}`;
}

/** Whether every filter of the search other than `keys` is unset. */
function onlyFilters(filters: VenueFilters, ...keys: Array<keyof VenueFilters>): boolean {
  return Object.entries(filters).every(([key, value]) => value === undefined || keys.includes(key as keyof VenueFilters));
}

const distinctAmenities = (filters: VenueFilters) => [...new Set(filters.amenities)];

/**
 * Every published venue, and those listing both of two amenities, are counted in PublishedVenueCount, which triggers
 * on Venue keep in the writer's transaction (migration published_venue_counts). A pair that no venue has ever listed
 * together has no row.
 */
const PUBLISHED_VENUES = `(SELECT venues FROM "PublishedVenueCount" WHERE amenity = '' AND "otherAmenity" = '')`;

function countedPair([one, other]: string[], param: Param): string {
  const [a, b] = [param(one), param(other)];
  return `coalesce((SELECT venues FROM "PublishedVenueCount" WHERE amenity = least(${a}::text, ${b}::text) AND "otherAmenity" = greatest(${a}::text, ${b}::text)), 0)`;
}

/**
 * One amenity alone reads ListedVenueAmenity (the published venues' amenities, keyed by amenity and slug): its page and
 * its exact count come from that key alone, in slug order, and each venue row is joined in the same statement. A GIN
 * index on Venue.amenities cannot count without reading every matching row, and a rare amenity is found late in slug
 * order. Beside other filters the amenity is a condition on the venue rows (venueConditions), which the other filters'
 * indexes narrow first: driving such a search from this table measured 67–170 ms.
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

/** The §4.1 filters as SQL conditions on a venue row `v`, besides being published (`prices`: the band's, if any). */
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

/** `column` within a stored range, as SQL conditions joined by AND (none for an open range). */
function inRange(column: string, { gte, lte }: StoredRange, param: Param): string[] {
  return [...(gte === undefined ? [] : [`${column} >= ${param(gte)}`]), ...(lte === undefined ? [] : [`${column} <= ${param(lte)}`])];
}

/** A venue whose shown starts-at amount is in the band: its own currency's range, or its converted currency's. */
function priceFilter({ own, converted }: PriceRanges, param: Param): string {
  const ranges = [own, ...converted.flatMap((c) => (c.range ? [c.range] : []))];
  const branch = (currency: string, range: StoredRange) => [currency, ...inRange('v."startingTotal"', range, param)].join(' AND ');
  const or = [
    branch(`v.currency <> ALL(${param(converted.map((c) => c.currency))}::text[])`, own),
    ...converted.flatMap((c) => (c.range ? [branch(`v.currency = ${param(c.currency)}`, c.range)] : [])),
  ];
  // The stored amounts all of the OR's branches lie between, stated once more: it selects nothing the OR does not, but
  // it is a single range the planner can scan on the (published, startingTotal, currency, …) index, counting a wide band
  // from the index alone instead of reading every published venue (75 ms before). An unpriced venue (no startingTotal)
  // is in no range, and the envelope always has a bound: a band has a minimum or a maximum.
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
 * startingTotal) of ListedVenueAmenity; pool with a band is counted without joining 35,763 listed venues to 23,679
 * priced ones.
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

/** The page statement's column holding the count (no Venue column has the name). */
const TOTAL = 'totalCount';

function withoutTotal({ [TOTAL]: _total, ...row }: Record<string, unknown>) {
  return row;
}

/** SQL parameters as a statement is written: `param(value)` adds one and gives its placeholder. */
function sqlParams() {
  const values: unknown[] = [];
  return { values, param: (value: unknown) => `$${values.push(value)}` };
}

/** A page of a search: at most `first` venues, whether more follow, and the search's count when it was asked for. */
export interface SearchPage<T> {
  rows: T[];
  more: boolean;
  total: number | undefined;
}

/**
 * The page of `plan` after `afterSlug` with the columns `selection` names (venue-rows.ts), read one row past `first` to
 * know whether more follow. With `withTotal` the count is a column of the same statement: one statement fewer per
 * search, which the embedded database runs one at a time. A page with no row carries no count.
 */
export async function readSearchPage<T>(
  plan: VenueSearchPlan,
  {
    selection,
    afterSlug,
    first,
    withTotal,
  }: { selection: VenueSelection | undefined; afterSlug: string | undefined; first: number; withTotal: boolean },
  readRows: RowReader,
): Promise<SearchPage<T>> {
  const { values, param } = sqlParams();
  const total = withTotal ? `, ${plan.total(param)}::int AS "${TOTAL}"` : '';
  const rows = await readRows<Record<string, unknown>>(
    `SELECT ${venueColumns(selection)}${total} ${plan.rows(param, afterSlug, first + 1)}`,
    values,
    PLAN_FOR_VALUES,
  );
  const more = rows.length > first;
  return {
    rows: (more ? rows.slice(0, first) : rows).map((row) => venueRow(withTotal ? withoutTotal(row) : row)) as T[],
    more,
    total: rows[0]?.[TOTAL] as number | undefined,
  };
}

/** The exact count of the whole search, in a statement of its own. */
export async function countSearch(plan: VenueSearchPlan, readRows: RowReader): Promise<number> {
  const { values, param } = sqlParams();
  const [{ total }] = await readRows<{ total: number }>(`SELECT ${plan.total(param)}::int AS total`, values, PLAN_FOR_VALUES);
  return total;
}

/** One published venue by its full slug with what `selection` names (every column without one), or undefined. */
export async function readVenueDetail(slug: string, selection: VenueSelection | undefined, readRows: RowReader): Promise<VenueDetailRow | undefined> {
  const [venue] = await readRows<VenueDetailRow>(venueDetailStatement(selection), [slug]);
  return venue && venueRow(venue);
}

/** Published venues among `ids`, in one statement. */
export async function readVenuesById(ids: string[], selection: VenueSelection | undefined, readRows: RowReader) {
  const rows = await readRows(`SELECT ${venueColumns(selection)} FROM "Venue" v WHERE v.id = ANY($1::uuid[]) AND v.published`, [ids]);
  return rows.map(venueRow);
}
