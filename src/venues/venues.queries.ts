import { PLAN_FOR_VALUES, type RowReader } from '../db/row-reader.js';
import { likeEscaped } from '../db/like-pattern.js';
import { slugify } from '../catalogue/slug.js';
import { venueColumns, venueDetailStatement, venueRow, type VenueDetailRow, type VenueSelection } from './venue-rows.js';
import type { VenueFacet, VenueSearch } from './venues.inputs.js';
import { TYPO_IN_DESCRIPTION_SCORE, WORD_PLACES, type QueryWord } from './venue-words.js';

/**
 * The venue module's reads: a search page and its count (§4.1), a venue by slug (§4.2), venues by id. Rows are read
 * through the driver, not Prisma's client (venue-rows.ts says why), and a search is planned for its parameters' values
 * (PLAN_FOR_VALUES): a narrow price band and a wide one want different indexes.
 */

/** The §4.1 filters of a search, as parsed. */
export type VenueFilters = Pick<
  VenueSearch,
  'state' | 'city' | 'venueType' | 'capacityMin' | 'capacityMax' | 'priceMin' | 'priceMax' | 'bedroomsMin' | 'amenities'
>;

/** Where a search looks: within `radiusKm` of a point (distances are read), or inside a box. */
export type SearchPlace =
  { kind: 'near'; lat: number; lng: number; radiusKm: number } | { kind: 'box'; minLng: number; minLat: number; maxLng: number; maxLat: number };

/**
 * An order other than slug order: by a key (nulls last), then slug. `price` compares the starting total in USD: the
 * stored amount times `usdPer` of the currency it is stored in (a currency without a rate today has no key).
 */
export type SearchOrder =
  { by: 'distance' } | { by: 'relevance' } | { by: 'price'; descending: boolean; usdPer: Record<string, number | null> } | { by: 'capacity' };

/** Where a page starts: after this slug (slug order), or after this key and slug (any other order). */
export interface SearchPosition {
  slug: string;
  key?: number | null;
}

/** Stored amounts (whole units) from `gte` to `lte`; an open end is absent. */
export type StoredRange = { gte?: number; lte?: number };

/**
 * A price band as ranges of the stored column: `own` for venues shown in the currency they store, and for each
 * converted currency the stored amounts that display inside the band (null on a day without a rate: none match).
 */
export type PriceRanges = { own: StoredRange; converted: Array<{ currency: string; range: StoredRange | null }> };

/**
 * What the planner plans from: the filters, the band's stored ranges when the search has a price bound, and what
 * discovery adds (a place, words, an order), absent in a §4.1 search.
 */
export interface SearchRequest {
  filters: VenueFilters;
  prices: PriceRanges | null;
  place?: SearchPlace;
  words?: QueryWord[];
  order?: SearchOrder;
}

/** Adds a parameter to the statement being written and gives its placeholder. */
type Param = (value: unknown) => string;

/**
 * One search as SQL, written with the statement's `param`: a page of its rows in slug order after a slug (FROM to
 * LIMIT), and the exact count of the whole set as a scalar subquery, which can stand in the page's select list or alone.
 */
export interface VenueSearchPlan {
  /** A common table expression both the page and the count read (`name AS (…)`), put before the statement. */
  with?: (param: Param) => string;
  rows: (param: Param, afterSlug: string | undefined, limit: number) => string;
  total: (param: Param) => string;
  /** Columns the page reads besides the venue's (`expr AS "name"`): a distance, an order's key. */
  columns?: (param: Param) => string;
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
    name: 'words alone',
    when: (search) => search.words !== undefined && search.place === undefined && onlyFilters(search.filters),
    measured: 'q=mountain view 24.2 → 8.8–11.9 ms: its 23,708 matches counted in 489 heap blocks, not 5,323, and its page walked',
    sql: ({ words }) => wordsAloneSearch(words!),
  },
  {
    name: 'no filter',
    when: (search) => filtersAlone(search) && onlyFilters(search.filters),
    measured: 'page 1 9.7–18 → 5 ms: the count is one row of PublishedVenueCount, not 96,044 index entries',
    // Nothing to test, so the page is the first rows of the slug index and needs no slug-first step.
    sql: () => ({ rows: (param, afterSlug, limit) => slugOrderPage('v.published', param, afterSlug, limit), total: () => PUBLISHED_VENUES }),
  },
  {
    name: 'one amenity alone',
    when: (search) => filtersAlone(search) && search.filters.amenities?.length === 1 && onlyFilters(search.filters, 'amenities'),
    measured: 'amenities=pool 25 → 8 ms, amenities=ocean-view 77 → 6 ms: page and count from the key of ListedVenueAmenity',
    sql: ({ filters }) => listedAmenitySearch(filters.amenities![0]),
  },
  {
    name: 'two amenities alone',
    when: (search) => filtersAlone(search) && distinctAmenities(search.filters).length === 2 && onlyFilters(search.filters, 'amenities'),
    measured: 'amenities=pool,hot-tub 15–22 → 4 ms: the count is one row of PublishedVenueCount, not two amenities intersected',
    sql: ({ filters }) => ({ total: (param) => countedPair(distinctAmenities(filters), param) }),
  },
  {
    name: 'price band, alone or with one amenity',
    when: ({ filters, prices, ...search }) =>
      filtersAlone(search) &&
      prices !== null &&
      (filters.amenities === undefined || filters.amenities.length === 1) &&
      onlyFilters(filters, 'priceMin', 'priceMax', 'amenities'),
    measured: 'count statement of the very wide band ~16 → ~5 ms (its request 18.8 → ~10 ms); amenities=pool with a band 18.5 → ~5 ms',
    sql: ({ filters, prices }) => ({ total: (param) => priceBandCount(prices!, filters.amenities?.[0] ?? null, param) }),
  },
];

/**
 * How a search is read: the one SEARCH_STRATEGIES row that answers it, else the general path; a search in another
 * order than slugs', the ordered path. `after` is where an ordered page starts.
 */
export function planVenueSearch(search: SearchRequest, after?: SearchPosition): VenueSearchPlan {
  if (search.order) return orderedSearch(search, search.order, after);
  const special = SEARCH_STRATEGIES.find((strategy) => strategy.when(search));
  return { ...generalSearch(search), ...special?.sql(search) };
}

/** Whether a search has §4.1 filters at most: no place, no words. */
const filtersAlone = ({ place, words }: Pick<SearchRequest, 'place' | 'words'>) => place === undefined && words === undefined;

/**
 * Any search: its page's slugs are found first and only its rows are read. The (published, slug, …) index carries the
 * filtered columns (a state's and a city's own indexes are in slug order), so walking slug order tests index entries
 * where it read venue rows: venue_type=castle tested 6,376 rows to find 21 on the 100,000-venue catalogue, 39.6 →
 * 4.5 ms. The count reads whatever index the filters narrow best.
 */
function generalSearch(search: SearchRequest): VenueSearchPlan {
  const where = (param: Param) => searchConditions(search, param).join(' AND ');
  if (search.words || search.place) {
    // Words and places find their venues through their own indexes (the document's GIN index, the latitude band),
    // each match checked against its row; the page sorts the few found, and the count counts the same set, read once.
    // Walking slug order instead tested each venue's words until the page was full, 720 ms for q=tuscanny on the
    // 100,000-venue catalogue, whose Tuscan venues all sort late (wordsAloneSearch walks a bounded stretch).
    return {
      with: (param) => `${MATCHED} AS MATERIALIZED (${matchedVenues(search, param)})`,
      rows: (param, afterSlug, limit) =>
        `FROM (SELECT slug FROM ${MATCHED}${afterSlug === undefined ? '' : ` WHERE slug > ${param(afterSlug)}`} ORDER BY slug LIMIT ${param(limit)}) page ` +
        `JOIN "Venue" v ON v.slug = page.slug ORDER BY v.slug`,
      total: () => `(SELECT count(*) FROM ${MATCHED})`,
      ...distanceColumn(search.place),
    };
  }
  return {
    rows: (param, afterSlug, limit) =>
      `FROM (SELECT v.slug ${slugOrderPage(where(param), param, afterSlug, limit)}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY v.slug`,
    // The subquery's own alias v hides the page's: the count is computed once, not per row.
    total: (param) => `(SELECT count(*) FROM "Venue" v WHERE ${where(param)})`,
  };
}

/** The venues a search by words or place matches, as a statement's common table expression. */
const MATCHED = 'matched';

/** Every condition of a search on a venue row `v`, being published first. */
function searchConditions({ filters, prices, place, words }: SearchRequest, param: Param): string[] {
  return [
    'v.published',
    ...venueConditions(filters, prices, param),
    ...(place ? placeConditions(place, param) : []),
    ...(words ? [wordsMatch(words, 'v', param)] : []),
  ];
}

/** Whether the venue row, or its row of VenueSearchWords, `alias` has every word of `q` (through one of its typos). */
const wordsMatch = (words: QueryWord[], alias: string, param: Param) => `${alias}."searchDocument" @@ ${param(matchQuery(words))}::tsquery`;

/**
 * The slugs (and `columns`, written for the alias of the row they read) of the venues a search by words or place
 * matches, as a statement. Words alone (ranked: in slug order they are the 'words alone' strategy) are found in
 * VenueSearchWords (`w`), whose narrow rows hold the words and whether the venue is published: checking each match
 * reads a third of the blocks it reads in Venue (docs/performance.md, Discovery at scale). Beside a filter or a place,
 * or under columns that read the venue row (`readsVenue`), Venue's own index on the words is intersected with theirs,
 * and each match is checked once, in its row: joining the two tables checked the words of each venue the others
 * found, reading its whole document.
 */
function matchedVenues(search: SearchRequest, param: Param, columns: (alias: string) => string = () => '', readsVenue = false): string {
  const { words } = search;
  const alone = words && !readsVenue && !search.place && onlyFilters(search.filters);
  if (alone) return `SELECT w.slug${columns('w')} FROM "VenueSearchWords" w WHERE w.published AND ${wordsMatch(words, 'w', param)}`;
  return `SELECT v.slug${columns('v')} FROM "Venue" v WHERE ${searchConditions(search, param).join(' AND ')}`;
}

/**
 * A search in another order: the matching venues sorted by the order's key (nulls last), then slug, one statement. A
 * page after a position continues after its key and slug, so no venue repeats or is skipped while the catalogue holds.
 * The page's slugs are sorted first and only their rows read: a distance is computed from the (published, latitude,
 * longitude, slug) index and a capacity read off its own, where sorting whole rows read every matching venue's row.
 */
function orderedSearch(search: SearchRequest, order: SearchOrder, after: SearchPosition | undefined): VenueSearchPlan {
  const descending = order.by === 'relevance' || order.by === 'capacity' || (order.by === 'price' && order.descending);
  const key = (param: Param) => orderKey(search, order, param);
  const where = (param: Param) => {
    const and = searchConditions(search, param);
    if (after) and.push(afterPosition(key(param), descending, after, param));
    return and.join(' AND ');
  };
  const direction = descending ? 'DESC' : 'ASC';
  const columns = (param: Param, sortKey: string) =>
    [`(${sortKey})::float8 AS "${SORT_KEY}"`, ...(search.place?.kind === 'near' ? [`${distance(search.place, param)} AS "${DISTANCE}"`] : [])].join(
      ', ',
    );
  if (order.by !== 'price' && (search.words || search.place)) {
    // As in generalSearch: the matches with their keys are found once, for the page and the count.
    return {
      with: (param) =>
        `${MATCHED} AS MATERIALIZED (${matchedVenues(search, param, (alias) => `, ${orderKey(search, order, param, alias)} AS key`, order.by !== 'relevance')})`,
      rows: (param, _afterSlug, limit) =>
        `FROM (SELECT v.slug, v.key FROM ${MATCHED} v${after ? ` WHERE ${afterPosition('v.key', descending, after, param)}` : ''} ` +
        `ORDER BY v.key ${direction} NULLS LAST, v.slug LIMIT ${param(limit)}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY page.key ${direction} NULLS LAST, v.slug`,
      total: () => `(SELECT count(*) FROM ${MATCHED})`,
      columns: (param) => columns(param, 'page.key'),
    };
  }
  return {
    rows: (param, _afterSlug, limit) =>
      order.by === 'price'
        ? `FROM (${priceBranches(search, order, after, param, limit)}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY ${key(param)} ${direction} NULLS LAST, v.slug LIMIT ${param(limit)}`
        : `FROM (SELECT v.slug, ${key(param)} AS key FROM "Venue" v WHERE ${where(param)} ORDER BY key ${direction} NULLS LAST, v.slug LIMIT ${param(limit)}) page JOIN "Venue" v ON v.slug = page.slug ORDER BY page.key ${direction} NULLS LAST, v.slug`,
    total: (param) => `(SELECT count(*) FROM "Venue" v WHERE ${searchConditions(search, param).join(' AND ')})`,
    columns: (param) => columns(param, key(param)),
  };
}

/**
 * A page in price order as one branch per currency with a rate, each in its stored amount's order on the (published,
 * currency, startingTotal) index (the USD key is the stored amount times the currency's rate), and one of the venues
 * without a key in slug order; the caller merges them. Sorting every venue by the computed key took 150–200 ms on the
 * 100,000-venue catalogue. A branch starts at the stored amount of the cursor's key.
 */
function priceBranches(
  search: SearchRequest,
  order: Extract<SearchOrder, { by: 'price' }>,
  after: SearchPosition | undefined,
  param: Param,
  limit: number,
): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  const priced = Object.entries(order.usdPer).filter((entry): entry is [string, number] => entry[1] !== null);
  const branches: string[] = [];
  const afterKey = after?.key ?? null;
  if (after === undefined || afterKey !== null) {
    for (const [currency, rate] of priced) {
      const and = [...searchConditions(search, param), `v.currency = ${param(currency)}`, 'v."startingTotal" IS NOT NULL'];
      if (after) {
        const key = `(v."startingTotal" * ${param(rate)}::float8)`;
        const stored = order.descending ? Math.ceil(afterKey! / rate) : Math.floor(afterKey! / rate);
        and.push(`v."startingTotal" ${order.descending ? '<=' : '>='} ${param(stored)}`, afterPosition(key, order.descending, after, param));
      }
      branches.push(`SELECT v.slug FROM "Venue" v WHERE ${and.join(' AND ')} ORDER BY v."startingTotal" ${direction}, v.slug LIMIT ${param(limit)}`);
    }
  }
  const unkeyed = [...searchConditions(search, param), `(v."startingTotal" IS NULL OR v.currency <> ALL(${param(priced.map(([c]) => c))}::text[]))`];
  if (after && afterKey === null) unkeyed.push(`v.slug > ${param(after.slug)}`);
  branches.push(`SELECT v.slug FROM "Venue" v WHERE ${unkeyed.join(' AND ')} ORDER BY v.slug LIMIT ${param(limit)}`);
  return branches.map((b) => `(${b})`).join(' UNION ALL ');
}

/** The order's key of a venue row `v`; relevance's of the row `alias` holding its words (matchedVenues). */
function orderKey(search: SearchRequest, order: SearchOrder, param: Param, alias = 'v'): string {
  switch (order.by) {
    case 'distance':
      return distance(search.place as Extract<SearchPlace, { kind: 'near' }>, param);
    case 'relevance':
      return relevance(search.words ?? [], alias, param);
    case 'capacity':
      return 'v."capacityMax"';
    case 'price': {
      const cases = Object.entries(order.usdPer).map(([currency, rate]) => `WHEN ${param(currency)} THEN ${param(rate)}::float8`);
      return `(v."startingTotal" * CASE v.currency ${cases.join(' ')} END)`;
    }
  }
}

/** Rows after `after` in (key nulls last, slug) order. */
function afterPosition(key: string, descending: boolean, after: SearchPosition, param: Param): string {
  const slug = param(after.slug);
  if (after.key === null || after.key === undefined) return `(${key}) IS NULL AND v.slug > ${slug}`;
  const value = `${param(after.key)}::float8`;
  return `((${key}) ${descending ? '<' : '>'} ${value} OR ((${key}) = ${value} AND v.slug > ${slug}) OR (${key}) IS NULL)`;
}

/** Kilometres in a degree of latitude (and of longitude at the equator), on the sphere the distances use. */
export const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

/** The great-circle distance from a point to a venue row `v` in km (haversine, as the discovery tests' reference). */
function distance({ lat, lng }: { lat: number; lng: number }, param: Param): string {
  const [a, b] = [`${param(lat)}::float8`, `${param(lng)}::float8`];
  return (
    `(${2 * EARTH_RADIUS_KM} * asin(least(1, sqrt(power(sin(radians(v.latitude - ${a}) / 2), 2) + ` +
    `cos(radians(${a})) * cos(radians(v.latitude)) * power(sin(radians(v.longitude - ${b}) / 2), 2)))))`
  );
}

const distanceColumn = (place: SearchPlace | undefined): Pick<VenueSearchPlan, 'columns'> =>
  place?.kind === 'near' ? { columns: (param) => `${distance(place, param)} AS "${DISTANCE}"` } : {};

/**
 * A place as conditions on a venue row `v`: a venue without coordinates is in none. Near a point, the latitude band
 * (and, away from the poles and the antimeridian, the longitude band) the radius spans narrows the index entries; the
 * exact distance decides.
 */
function placeConditions(place: SearchPlace, param: Param): string[] {
  const lngIn = (lo: number, hi: number) =>
    lo <= hi
      ? `v.longitude BETWEEN ${param(lo)}::float8 AND ${param(hi)}::float8`
      : `(v.longitude >= ${param(lo)}::float8 OR v.longitude <= ${param(hi)}::float8)`;
  if (place.kind === 'box') {
    return [`v.latitude BETWEEN ${param(place.minLat)}::float8 AND ${param(place.maxLat)}::float8`, lngIn(place.minLng, place.maxLng)];
  }
  const dLat = place.radiusKm / KM_PER_DEGREE;
  const and = [`v.latitude BETWEEN ${param(place.lat - dLat)}::float8 AND ${param(place.lat + dLat)}::float8`];
  const farthest = Math.abs(place.lat) + dLat;
  const dLng = farthest < 89 ? dLat / Math.cos((farthest * Math.PI) / 180) : Infinity;
  if (dLng < 180) {
    const [lo, hi] = [place.lng - dLng, place.lng + dLng];
    and.push(lo < -180 ? lngIn(lo + 360, hi) : hi > 180 ? lngIn(lo, hi - 360) : lngIn(lo, hi));
  } else and.push('v.longitude IS NOT NULL');
  and.push(`${distance(place, param)} <= ${param(place.radiusKm)}::float8`);
  return and;
}

/** A word's alternatives (itself and its typos) as a tsquery, each restricted to `weights` when given. */
const alternatives = (terms: readonly string[], weights = '') => terms.map((t) => `'${t}'${weights && `:${weights}`}`).join(' | ');

/** Every word of `q` (through one of its alternatives): the words are a-z and 0-9 only (venue-words.ts). */
const matchQuery = (words: QueryWord[]) => words.map((w) => `(${alternatives([w.word, ...w.typos])})`).join(' & ');

/**
 * A venue's relevance to `q`: for each word, the score of the best place it is found in (WORD_PLACES), a typo
 * scoring as an exact word one place down; summed over the words. Only for venues the words match, on their row
 * `alias` (of Venue or VenueSearchWords, matchedVenues).
 *
 * The name, place and kind (A to C) are tested in searchHead, which stays in the row; the whole document, stored
 * compressed out of line, is read only to tell the word in the description (D) from a typo there, and only for a
 * venue none of the tests before found it in. A word without typos that got that far is in the description: the
 * venue matched it.
 */
function relevance(words: QueryWord[], alias: string, param: Param): string {
  const [description, lastInHead] = [WORD_PLACES[WORD_PLACES.length - 1], WORD_PLACES[WORD_PLACES.length - 2]];
  const terms = words.map(({ word, typos }) => {
    const tiers = WORD_PLACES.slice(0, -1).map(({ weight, score }, i) => {
      const typoAbove = i > 0 && typos.length ? [alternatives(typos, WORD_PLACES[i - 1].weight)] : [];
      return `WHEN ${alias}."searchHead" @@ ${param([alternatives([word], weight), ...typoAbove].join(' | '))}::tsquery THEN ${score}`;
    });
    if (!typos.length) return `CASE ${tiers.join(' ')} ELSE ${description.score} END`;
    tiers.push(`WHEN ${alias}."searchHead" @@ ${param(alternatives(typos, lastInHead.weight))}::tsquery THEN ${description.score}`);
    tiers.push(`WHEN ${alias}."searchDocument" @@ ${param(alternatives([word], description.weight))}::tsquery THEN ${description.score}`);
    return `CASE ${tiers.join(' ')} ELSE ${TYPO_IN_DESCRIPTION_SCORE} END`;
  });
  return `(${terms.join(' + ')})`;
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

/**
 * How far a page of words alone walks slug order before it gives way to the sorted matches (rows), and how dense the
 * matches must be for the walk to be tried: its page expected within 1/expectedShare of the walk.
 */
export const WORDS_WALK = { rows: 1_000, expectedShare: 4 };

/**
 * Words alone in slug order read VenueSearchDocument (`d`), whose rows hold the slug and a pointer to the document out
 * of line: the matches the GIN index finds are counted in a ninth of the heap blocks VenueSearchWords' would take.
 * When the count says the matches are dense, the page walks slug order testing each row's document, at most
 * WORDS_WALK.rows of them, stopping at a full page; when they are not, or the walk does not fill the page (matches that
 * sort late: a name's words begin its slug), the page is the matches sorted. Each CTE runs only if its branch does.
 */
function wordsAloneSearch(words: QueryWord[]): VenueSearchPlan {
  return {
    with: (param) => `${COUNTED} AS MATERIALIZED (SELECT count(*) AS n FROM "VenueSearchDocument" d WHERE ${publishedDocumentMatch(words, param)})`,
    rows: (param, afterSlug, limit) => {
      const after = afterSlug === undefined ? '' : ` AND d.slug > ${param(afterSlug)}`;
      const [pageRows, walkRows] = [param(limit), param(WORDS_WALK.rows)];
      const dense = `(SELECT n FROM ${COUNTED}) * ${walkRows} >= ${PUBLISHED_VENUES} * ${pageRows} * ${WORDS_WALK.expectedShare}`;
      const walked =
        `SELECT d.slug FROM (SELECT d.* FROM "VenueSearchDocument" d WHERE ${dense}${after} ORDER BY d.slug LIMIT ${walkRows}) d ` +
        `WHERE ${publishedDocumentMatch(words, param)} ORDER BY d.slug LIMIT ${pageRows}`;
      const full = `(SELECT count(*) FROM walked) = ${pageRows}`;
      return (
        `FROM (WITH walked AS MATERIALIZED (${walked}), sorted AS MATERIALIZED (SELECT d.slug FROM "VenueSearchDocument" d WHERE ${publishedDocumentMatch(words, param)}${after}) ` +
        `SELECT slug FROM walked WHERE ${full} UNION ALL (SELECT slug FROM sorted WHERE NOT ${full} ORDER BY slug LIMIT ${pageRows})) page ` +
        `JOIN "Venue" v ON v.slug = page.slug ORDER BY v.slug`
      );
    },
    total: () => `(SELECT n FROM ${COUNTED})`,
  };
}

/** The count of a search by words alone, as a statement's common table expression. */
const COUNTED = 'counted';

/** Whether the row `d` of VenueSearchDocument is a published venue with every word of `q`. */
const publishedDocumentMatch = (words: QueryWord[], param: Param) => `d.published AND ${wordsMatch(words, 'd', param)}`;

/** The property types venue_type matches: a substring, in any case, % and _ as written (venueConditions). */
const PROPERTY_TYPES_LIKE = (pattern: string) => `SELECT name FROM "VenuePropertyType" WHERE name ILIKE ${pattern}`;
const propertyTypePattern = (venueType: string) => `%${likeEscaped(venueType)}%`;

/** The property types the venue_type filter `venueType` matches, as a search tests them. */
export async function readPropertyTypesLike(venueType: string, readRows: RowReader): Promise<Set<string>> {
  const rows = await readRows<{ name: string }>(PROPERTY_TYPES_LIKE('$1'), [propertyTypePattern(venueType)]);
  return new Set(rows.map((r) => r.name));
}

/** The §4.1 filters as SQL conditions on a venue row `v`, besides being published (`prices`: the band's, if any). */
function venueConditions(f: VenueFilters, prices: PriceRanges | null, param: Param): string[] {
  const and: string[] = [];
  if (f.state) and.push(`v."stateSlug" = ${param(slugify(f.state))}`);
  if (f.city) and.push(`v."citySlug" = ${param(slugify(f.city))}`);
  // A substring of the property type, matched against the ~120 distinct names and joined back by an index (migration
  // search_lookup_tables says why): the same ILIKE on the same text as testing every venue row. The text is matched
  // as written: % and _ are escaped, not wildcards.
  if (f.venueType) and.push(`v."propertyType" IN (${PROPERTY_TYPES_LIKE(param(propertyTypePattern(f.venueType)))})`);
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

/**
 * The page statement's columns holding the count, an order's key and a distance (no Venue column has the names). The
 * count and the key stay on the rows handed on, under names no GraphQL field can have: copying each row without them
 * cost more CPU than the rest of the page's mapping.
 */
const TOTAL = '$total';
const SORT_KEY = '$sortKey';
const DISTANCE = 'distanceKm';

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
  /** A row's key in the search's order (an ordered search only): read off the row, which keeps it. */
  keyOf?: (row: T) => number | null;
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
  const common = withClause(plan, param);
  const total = withTotal ? `, ${plan.total(param)}::int AS "${TOTAL}"` : '';
  const columns = plan.columns ? `, ${plan.columns(param)}` : '';
  const rows = await readRows<Record<string, unknown>>(
    `${common}SELECT ${venueColumns(selection)}${total}${columns} ${plan.rows(param, afterSlug, first + 1)}`,
    values,
    PLAN_FOR_VALUES,
  );
  const more = rows.length > first;
  const page = (more ? rows.slice(0, first) : rows).map((row) => venueRow(row));
  const keyOf = page.length && SORT_KEY in page[0] ? (row: T) => ((row as Record<string, unknown>)[SORT_KEY] ?? null) as number | null : undefined;
  return { rows: page as T[], more, total: rows[0]?.[TOTAL] as number | undefined, keyOf };
}

/** The exact count of the whole search, in a statement of its own. */
export async function countSearch(plan: VenueSearchPlan, readRows: RowReader): Promise<number> {
  const { values, param } = sqlParams();
  const common = withClause(plan, param);
  const [{ total }] = await readRows<{ total: number }>(`${common}SELECT ${plan.total(param)}::int AS total`, values, PLAN_FOR_VALUES);
  return total;
}

const withClause = (plan: VenueSearchPlan, param: Param) => (plan.with ? `WITH ${plan.with(param)} ` : '');

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

/** Edges of the price bands (whole units of each venue's own currency) and of the capacity bands (sleeps). */
export const PRICE_BAND_EDGES = [5_000, 10_000, 20_000, 50_000] as const;
export const CAPACITY_BAND_EDGES = [11, 21, 31, 51] as const;

/** What a published venue's facets count and the filters test (venue-facet-index.ts). */
export interface FacetColumns {
  /** VenueSearchDocument's number of the venue (an int8, as text); null while it has no row there. */
  key: string | null;
  venueType: string | null;
  propertyType: string | null;
  stateSlug: string;
  state: string;
  citySlug: string;
  currency: string;
  startingTotal: number | null;
  capacityMax: number | null;
  bedrooms: number | null;
  amenities: string[];
}

/** Per currency shown converted (STORED_AS): the day's rate (null on a day without one) and the rounding step. */
export type ShowRates = Record<string, { rate: number | null; roundUpTo: number }>;

/** The facet columns of every published venue, in one statement. */
export function readFacetColumns(readRows: RowReader): Promise<FacetColumns[]> {
  return readRows<FacetColumns>(
    `SELECT d.key, v."venueType", v."propertyType", v."stateSlug", v.state, v."citySlug", v.currency, v."startingTotal", v."capacityMax",
       v.bedrooms, v.amenities
     FROM "Venue" v LEFT JOIN "VenueSearchDocument" d ON d.slug = v.slug WHERE v.published`,
    [],
  );
}

/** One counted value of a facet: a venue type, an amenity, a state (with its name), a price or capacity band. */
export interface FacetRow {
  facet: VenueFacet;
  value: string;
  label: string | null;
  venues: number;
}

/**
 * The keys (VenueSearchDocument.key) of the published venues a search's place and words match, its filters left out:
 * the venues its facets are counted over (venue-facet-index.ts applies the filters). A place is read from the
 * (published, latitude, longitude, slug) index, the words through VenueSearchDocument's GIN index. Beside a place the
 * words' matches, with their keys, are a subquery kept whole (OFFSET 0) that the place's venues are joined to: joined
 * as the planner liked, it tested each venue of the place against its document, read out of line one by one (65 ms
 * for 2,321 venues on the 100,000-venue catalogue). The keys come as one text, not a row each: tens of thousands of
 * rows cost the driver more than the statement.
 */
export async function readPlaceAndWordsMatches({ place, words }: Pick<SearchRequest, 'place' | 'words'>, readRows: RowReader): Promise<number[]> {
  const { values, param } = sqlParams();
  const matchingWords = words && `FROM "VenueSearchDocument" d WHERE ${publishedDocumentMatch(words, param)}`;
  const matched = matchingWords ? `(SELECT d.slug, d.key ${matchingWords} OFFSET 0) d` : '"VenueSearchDocument" d';
  const keys = place
    ? `FROM "Venue" v JOIN ${matched} ON d.slug = v.slug WHERE ${['v.published', ...placeConditions(place, param)].join(' AND ')}`
    : matchingWords;
  if (keys === undefined) throw new Error('a search without a place or words matches every venue: count its facets over all of them');
  const [{ keys: text }] = await readRows<{ keys: string | null }>(`SELECT string_agg(d.key::text, ',') AS keys ${keys}`, values, PLAN_FOR_VALUES);
  return text === null ? [] : text.split(',').map(Number);
}
