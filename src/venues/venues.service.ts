import { Prisma, type PrismaClient, type Testimonial, type Venue as VenueModelRow, type VenuePhoto } from '../generated/prisma/client.js';
import { modelColumns, type RowReader } from '../db/row-reader.js';
import { ApiError } from '../errors/api-error.js';
import { slugify } from '../catalogue/slug.js';
import { parseInput } from '../errors/validation.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import { startedNow, type Page } from '../graphql/connection.js';
import { VenueSearchInput, SLUG_MAX_LENGTH, SLUG_PATTERN } from './venues.inputs.js';
import { STORED_AS, storedBoundsFor, type DayRate } from './venue-pricing.js';

export interface VenueDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  cursors: CursorCodec;
  /** The day's rate for a pair such as "USD:AUD" (per-request loader). */
  dayRate: (pair: string) => Promise<DayRate | null>;
}

/** Prisma selection for the venue rows a caller asked for (GraphQL plans it from the query). */
type VenueQuery = { include?: Prisma.VenueInclude; select?: Prisma.VenueSelect };

/**
 * §4.1 venue search: published venues only, ordered by slug (stable: slugs are unique), keyset-paginated with a
 * signed cursor bound to the filters. totalCount counts the whole filtered set and runs only when asked for.
 */
export async function searchVenues<T extends { slug: string }>(
  rawInput: unknown,
  query: VenueQuery,
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

  const rows = (await search.page(query, afterSlug, first + 1)) as unknown as T[];
  const hasNextPage = rows.length > first;
  return {
    nodes: hasNextPage ? rows.slice(0, first) : rows,
    hasNextPage,
    hasPreviousPage: afterSlug !== undefined,
    cursorOf: (v) => deps.cursors.encode([v.slug], scope),
    totalCount,
  };
}

type VenueFilters = Omit<ReturnType<typeof VenueSearchInput.parse>, 'first' | 'after'>;

/** One search's statements: a page of venue rows in slug order after a slug, and the exact count of the whole set. */
interface VenueSearchPlan {
  page: (query: VenueQuery, afterSlug: string | undefined, take: number) => Promise<unknown[]>;
  count: () => Promise<number>;
}

async function venueSearch(filters: VenueFilters, deps: VenueDeps): Promise<VenueSearchPlan> {
  const { priceMin, priceMax } = filters;
  // Read once: the page's price filter and a price band's count are written from the same converted bands.
  const prices = priceMin === undefined && priceMax === undefined ? null : await priceRanges({ min: priceMin, max: priceMax }, deps);
  const where: Prisma.VenueWhereInput = { AND: [{ published: true }, ...venueConditions(filters, prices)] };
  const bandAmenity = prices ? soleBandAmenity(filters) : undefined;
  const amenities = soleAmenities(filters);
  return {
    page: (query, afterSlug, take) =>
      deps.prisma.venue.findMany(
        Object.assign({}, query, {
          where: afterSlug ? { AND: [where, { slug: { gt: afterSlug } }] } : where,
          orderBy: { slug: 'asc' as const },
          take,
        }),
      ),
    count:
      prices && bandAmenity !== undefined
        ? () => priceBandCount(prices, bandAmenity, deps.prisma)
        : amenities
          ? () => listedTogetherCount(amenities, deps.prisma)
          : () => deps.prisma.venue.count({ where }),
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
async function listedTogetherCount([first, ...others]: string[], prisma: PrismaClient): Promise<number> {
  const joins = others.map((amenity, i) => {
    const table = Prisma.raw(`a${i + 1}`);
    return Prisma.sql` JOIN "ListedVenueAmenity" ${table} ON ${table}.slug = a0.slug AND ${table}.amenity = ${amenity}`;
  });
  const [{ total }] = await prisma.$queryRaw<Array<{ total: number }>>`
    SELECT count(*)::int AS total FROM "ListedVenueAmenity" a0${Prisma.join(joins, '')} WHERE a0.amenity = ${first}`;
  return total;
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
    page: async (query, afterSlug, take) => {
      const listed = await deps.prisma.listedVenueAmenity.findMany({
        where: afterSlug ? { amenity, slug: { gt: afterSlug } } : { amenity },
        orderBy: { slug: 'asc' },
        take,
        select: { venue: query.select ? { select: query.select } : query.include ? { include: query.include } : true },
      });
      return listed.map((row) => row.venue);
    },
    count: () => deps.prisma.listedVenueAmenity.count({ where: { amenity } }),
  };
}

function slugPosition(position: unknown[]): string {
  if (typeof position[0] !== 'string') throw new ApiError('invalid_cursor', { param: 'after' });
  return position[0];
}

/** The §4.1 filters as conditions on a venue row, besides being published (`prices`: the band's ranges, if any). */
function venueConditions(f: VenueFilters, prices: PriceRanges | null): Prisma.VenueWhereInput[] {
  const and: Prisma.VenueWhereInput[] = [];
  if (f.state) and.push({ stateSlug: slugify(f.state) });
  if (f.city) and.push({ citySlug: slugify(f.city) });
  // A substring of the property type, matched against the ~120 distinct names and joined back by an index (migration
  // search_lookup_tables says why): the same ILIKE on the same text as testing every venue row.
  if (f.venueType) and.push({ propertyTypeEntry: { is: { name: { contains: f.venueType, mode: 'insensitive' } } } });
  // Capacity bounds compare with the venue's sleeping capacity (capacity_max): "sleeps at least / at most N".
  if (f.capacityMin !== undefined) and.push({ capacityMax: { gte: f.capacityMin } });
  if (f.capacityMax !== undefined) and.push({ capacityMax: { lte: f.capacityMax } });
  if (f.bedroomsMin !== undefined) and.push({ bedrooms: { gte: f.bedroomsMin } });
  // One amenity: its venues from the listed-amenities key, joined by slug to the index that answers the other filters
  // (those of a price band, a state and a venue type end in slug). Several: the GIN index on the amenities intersects
  // them faster than as many joins (docs/performance.md, Scale).
  if (f.amenities?.length === 1) and.push({ listedAmenities: { some: { amenity: f.amenities[0] } } });
  else if (f.amenities?.length) and.push({ amenities: { hasEvery: f.amenities } });
  if (prices) and.push(priceFilter(prices));
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

function priceFilter({ own, converted }: PriceRanges): Prisma.VenueWhereInput {
  const ranges = [own, ...converted.flatMap((c) => (c.range ? [c.range] : []))];
  const or: Prisma.VenueWhereInput[] = [
    { currency: { notIn: converted.map((c) => c.currency) }, startingTotal: own },
    ...converted.flatMap((c) => (c.range ? [{ currency: c.currency, startingTotal: c.range }] : [])),
  ];
  // The stored amounts all of the OR's branches lie between, stated once more: it selects nothing the OR does not, but
  // it is a single range the planner can scan on the (published, startingTotal, currency, …) index, counting a wide band
  // from the index alone instead of reading every published venue (docs/performance.md, Scale).
  const envelope = {
    gte: own.gte === undefined ? undefined : Math.min(...ranges.map((r) => r.gte ?? 0)),
    lte: own.lte === undefined ? undefined : Math.max(...ranges.map((r) => r.lte ?? 0)),
  };
  return { AND: [{ startingTotal: envelope }, { OR: or }] };
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
async function priceBandCount({ own, converted }: PriceRanges, amenity: string | null, prisma: PrismaClient): Promise<number> {
  const from = amenity === null ? Prisma.sql`"Venue" WHERE published` : Prisma.sql`"ListedVenueAmenity" WHERE amenity = ${amenity}`;
  const bound = (operator: '>=' | '<=', value: number | undefined) =>
    value === undefined ? Prisma.empty : Prisma.sql` AND "startingTotal" ${Prisma.raw(operator)} ${value}`;
  const count = (currency: string | null, { gte, lte }: StoredRange) =>
    Prisma.sql`(SELECT count(*) FROM ${from}${currency === null ? Prisma.empty : Prisma.sql` AND currency = ${currency}`}${bound('>=', gte)}${bound('<=', lte)})`;
  const terms = [count(null, own)];
  for (const { currency, range } of converted) {
    terms.push(Prisma.sql` - ${count(currency, own)}`);
    if (range) terms.push(Prisma.sql` + ${count(currency, range)}`);
  }
  const [{ total }] = await prisma.$queryRaw<Array<{ total: number }>>`SELECT (${Prisma.join(terms, '')})::int AS total`;
  return total;
}

/** A venue with its first 5 photos in gallery order and its testimonials newest event first: the §4.2 detail. */
export type VenueDetailRow = VenueModelRow & { photos: VenuePhoto[]; testimonials: Testimonial[] };

/**
 * Every column of the venue by its Prisma name, and the two relations Venue.photos and Venue.testimonials show, each in
 * the order and number that relation's query asks Prisma for (venues.graphql.ts), as JSON in the same row. The detail
 * is read through the driver, not Prisma's client: it costs ~200 µs less CPU per request for the same statement
 * (docs/performance.md, stop 28). The row is a superset of any selection GraphQL plans for Venue, so plugin-prisma's
 * fields answer from it with the plan its query recorded.
 */
const DETAIL_SELECT = `SELECT ${modelColumns(Prisma.VenueScalarFieldEnum, 'v', ['createdAt', 'updatedAt'])},
  (SELECT COALESCE(json_agg(p ORDER BY p.position, p.id), '[]'::json)
     FROM (SELECT * FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos,
  (SELECT COALESCE(json_agg(t ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
     FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials
  FROM "Venue" v WHERE v.slug = $1 AND v.published`;

/** §4.2: one published venue by its full slug; invalid_slug for impossible characters, venue_not_found otherwise. */
export async function getVenue(rawSlug: unknown, deps: Pick<VenueDeps, 'readRows'>): Promise<VenueDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  if (!slug || slug.length > SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) throw new ApiError('invalid_slug', { param: 'slug' });
  const [venue] = await deps.readRows<JsonRelations<VenueDetailRow>>(DETAIL_SELECT, [slug]);
  if (!venue) throw new ApiError('venue_not_found', { param: 'slug', message: `No published venue has the slug '${slug}'.` });
  // JSON has no date: a testimonial's event day comes as YYYY-MM-DD, which Prisma gives as that day's UTC midnight.
  return { ...venue, testimonials: venue.testimonials.map((t) => ({ ...t, eventDate: t.eventDate === null ? null : new Date(t.eventDate) })) };
}

/** A detail row as JSON carries it: dates as text. */
type JsonRelations<T extends VenueDetailRow> = Omit<T, 'testimonials'> & {
  testimonials: Array<Omit<Testimonial, 'eventDate'> & { eventDate: string | null }>;
};

/** Venues by id for node(id:)/nodes(ids:): published ones only, as search and detail show (one statement). */
export function visibleVenuesById(ids: string[], query: VenueQuery, deps: Pick<VenueDeps, 'prisma'>) {
  return deps.prisma.venue.findMany(Object.assign({}, query, { where: { id: { in: ids }, published: true } }));
}
