import { countRows, PLAN_FOR_VALUES, type RowReader } from '../db/row-reader.js';
import { likeEscaped } from '../db/like-pattern.js';
import { venueColumns, venueRow, type VenueDetailRow, type VenueSelection } from './venue-rows.js';
import { ApiError } from '../errors/api-error.js';
import { slugify } from '../catalogue/slug.js';
import { parseInput } from '../errors/validation.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import { startedNow, type Page } from '../graphql/connection.js';
import { VenueSearchInput, SLUG_MAX_LENGTH, SLUG_PATTERN } from './venues.inputs.js';
import { STORED_AS, storedBoundsFor, type DayRate } from './venue-pricing.js';

export interface VenueDeps {
  readRows: RowReader;
  cursors: CursorCodec;
  /** The day's rate for a pair such as "USD:AUD" (per-request loader). */
  dayRate: (pair: string) => Promise<DayRate | null>;
}

/**
 * §4.1 venue search: published venues only, ordered by slug (stable: slugs are unique), keyset-paginated with a
 * signed cursor bound to the filters. totalCount counts the whole filtered set and runs only when asked for.
 * `selection`: what GraphQL's plan selects of each venue (venue-rows.ts).
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
  const search = amenity ? listedAmenitySearch(amenity, deps) : await venueSearch(filters, deps);
  // The count runs on another pooled connection while the page is read, when the caller will ask for it.
  const totalCount = countWithPage ? startedNow(search.count) : search.count;

  const rows = await search.page(selection, afterSlug, first + 1);
  const hasNextPage = rows.length > first;
  const nodes = (hasNextPage ? rows.slice(0, first) : rows).map(venueRow) as T[];
  return {
    nodes,
    hasNextPage,
    hasPreviousPage: afterSlug !== undefined,
    cursorOf: (v) => deps.cursors.encode([v.slug], scope),
    totalCount,
  };
}

type VenueFilters = Omit<ReturnType<typeof VenueSearchInput.parse>, 'first' | 'after'>;

/** One search's statements: a page of venue rows in slug order after a slug, and the exact count of the whole set. */
interface VenueSearchPlan {
  page: (selection: VenueSelection | undefined, afterSlug: string | undefined, take: number) => Promise<unknown[]>;
  count: () => Promise<number>;
}

/** SQL parameters as a statement is written: `param(value)` adds one and gives its placeholder. */
function sqlParams(initial: unknown[] = []) {
  const values = [...initial];
  return { values, param: (value: unknown) => `$${values.push(value)}` };
}

async function venueSearch(filters: VenueFilters, deps: VenueDeps): Promise<VenueSearchPlan> {
  const { priceMin, priceMax } = filters;
  // Read once: the page's price filter and a price band's count are written from the same converted bands.
  const prices = priceMin === undefined && priceMax === undefined ? null : await priceRanges({ min: priceMin, max: priceMax }, deps);
  const conditions = sqlParams();
  const where = ['v.published', ...venueConditions(filters, prices, conditions.param)].join(' AND ');
  const bandAmenity = prices ? soleBandAmenity(filters) : undefined;
  const amenities = soleAmenities(filters);
  return {
    page: (selection, afterSlug, take) => {
      const { values, param } = sqlParams(conditions.values);
      const after = afterSlug === undefined ? '' : ` AND v.slug > ${param(afterSlug)}`;
      return deps.readRows(
        `SELECT ${venueColumns(selection)} FROM "Venue" v WHERE ${where}${after} ORDER BY v.slug LIMIT ${param(take)}`,
        values,
        PLAN_FOR_VALUES,
      );
    },
    count:
      prices && bandAmenity !== undefined
        ? () => priceBandCount(prices, bandAmenity, deps.readRows)
        : amenities
          ? () => listedTogetherCount(amenities, deps.readRows)
          : () => countRows(deps.readRows, `"Venue" v WHERE ${where}`, conditions.values, PLAN_FOR_VALUES),
  };
}

/**
 * The amenities of a search whose only filter is 2 to 8 amenities, else null. Up to PostgreSQL's join_collapse_limit
 * (8) the planner still orders listedTogetherCount's joins; more amenities keep the GIN intersection.
 */
function soleAmenities(filters: VenueFilters): string[] | null {
  const { amenities } = filters;
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
function listedTogetherCount([first, ...others]: string[], readRows: RowReader): Promise<number> {
  const { values, param } = sqlParams([first]);
  const joins = others.map(
    (amenity, i) => ` JOIN "ListedVenueAmenity" a${i + 1} ON a${i + 1}.slug = a0.slug AND a${i + 1}.amenity = ${param(amenity)}`,
  );
  return countRows(readRows, `"ListedVenueAmenity" a0${joins.join('')} WHERE a0.amenity = $1`, values, PLAN_FOR_VALUES);
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
function listedAmenitySearch(amenity: string, deps: VenueDeps): VenueSearchPlan {
  return {
    page: (selection, afterSlug, take) => {
      const { values, param } = sqlParams([amenity]);
      const after = afterSlug === undefined ? '' : ` AND la.slug > ${param(afterSlug)}`;
      return deps.readRows(
        `SELECT ${venueColumns(selection)} FROM "ListedVenueAmenity" la JOIN "Venue" v ON v.slug = la.slug
          WHERE la.amenity = $1${after} ORDER BY la.slug LIMIT ${param(take)}`,
        values,
        PLAN_FOR_VALUES,
      );
    },
    count: () => countRows(deps.readRows, `"ListedVenueAmenity" WHERE amenity = $1`, [amenity], PLAN_FOR_VALUES),
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
function venueConditions(f: VenueFilters, prices: PriceRanges | null, param: (value: unknown) => string): string[] {
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
  // One amenity: its venues from the listed-amenities key, joined by slug to the index that answers the other filters
  // (those of a price band, a state and a venue type end in slug). Several: the GIN index on the amenities intersects
  // them faster than as many joins (docs/performance.md, Scale).
  if (f.amenities?.length === 1) and.push(`v.slug IN (SELECT slug FROM "ListedVenueAmenity" WHERE amenity = ${param(f.amenities[0])})`);
  else if (f.amenities?.length) and.push(`v.amenities @> ${param(f.amenities)}::text[]`);
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
function inRange(column: string, { gte, lte }: StoredRange, param: (value: unknown) => string): string[] {
  return [...(gte === undefined ? [] : [`${column} >= ${param(gte)}`]), ...(lte === undefined ? [] : [`${column} <= ${param(lte)}`])];
}

function priceFilter({ own, converted }: PriceRanges, param: (value: unknown) => string): string {
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
async function priceBandCount({ own, converted }: PriceRanges, amenity: string | null, readRows: RowReader): Promise<number> {
  const { values, param } = sqlParams(amenity === null ? [] : [amenity]);
  const from = amenity === null ? `"Venue" WHERE published` : `"ListedVenueAmenity" WHERE amenity = $1`;
  const count = (currency: string | null, range: StoredRange) =>
    `(SELECT count(*) FROM ${[from, ...(currency === null ? [] : [`currency = ${param(currency)}`]), ...inRange('"startingTotal"', range, param)].join(' AND ')})`;
  const terms = [count(null, own)];
  for (const { currency, range } of converted) {
    terms.push(` - ${count(currency, own)}`);
    if (range) terms.push(` + ${count(currency, range)}`);
  }
  const [{ total }] = await readRows<{ total: number }>(`SELECT (${terms.join('')})::int AS total`, values, PLAN_FOR_VALUES);
  return total;
}

/** §4.2: one published venue by its full slug; invalid_slug for impossible characters, venue_not_found otherwise. */
export async function getVenue(rawSlug: unknown, deps: Pick<VenueDeps, 'readRows'>): Promise<VenueDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  if (!slug || slug.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) throw new ApiError('invalid_slug', { param: 'slug' });
  // Every column and relation, whatever the query selects: one statement text for every detail, a superset of any plan.
  const [venue] = await deps.readRows<VenueDetailRow>(`SELECT ${venueColumns()} FROM "Venue" v WHERE v.slug = $1 AND v.published`, [slug]);
  if (!venue) throw new ApiError('venue_not_found', { param: 'slug', message: `No published venue has the slug '${slug}'.` });
  return venueRow(venue);
}

/** Venues by id for node(id:)/nodes(ids:): published ones only, as search and detail show (one statement). */
export async function visibleVenuesById(ids: string[], selection: VenueSelection | undefined, deps: Pick<VenueDeps, 'readRows'>) {
  const rows = await deps.readRows(`SELECT ${venueColumns(selection)} FROM "Venue" v WHERE v.id = ANY($1::uuid[]) AND v.published`, [ids]);
  return rows.map(venueRow);
}
