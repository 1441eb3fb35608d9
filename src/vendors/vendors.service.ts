import { Prisma, type PrismaClient, type Vendor, type VendorPhoto } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import { modelColumns, type RowReader } from '../db/row-reader.js';
import { orderBySql, relatedRowsSql, type PlannedRead, type RelatedModel } from '../db/relation-shape.js';
import { VENDOR_PHOTOS } from './vendor-relations.js';
import { likeEscaped } from '../db/like-pattern.js';
import { slugify } from '../catalogue/slug.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import { startedNow, type Page } from '../pagination/page.js';
import type { VendorSearch, VendorSort } from './vendors.inputs.js';

export interface VendorDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  cursors: CursorCodec;
}

type VendorQuery = { include?: Prisma.VendorInclude; select?: Prisma.VendorSelect };
type Keyed = { id: string; createdAt: Date; startingPrice: number | null; yearsInBusiness: number | null; weddingsCompleted: number | null };

/** The column each sort orders by (then id, so the order is total and stable). Nulls always come last. */
type SortField = 'createdAt' | 'startingPrice' | 'yearsInBusiness' | 'weddingsCompleted';
const SORT_KEYS: Record<VendorSort, { field: SortField; dir: 'asc' | 'desc' }> = {
  newest: { field: 'createdAt', dir: 'desc' },
  price_low_to_high: { field: 'startingPrice', dir: 'asc' },
  price_high_to_low: { field: 'startingPrice', dir: 'desc' },
  experience: { field: 'yearsInBusiness', dir: 'desc' },
  weddings_completed: { field: 'weddingsCompleted', dir: 'desc' },
};

export async function vendorCategorySlugs(prisma: PrismaClient): Promise<{ slug: string; name: string }[]> {
  return prisma.vendorCategory.findMany({ orderBy: { position: 'asc' }, select: { slug: true, name: true } });
}

/** §4.7 vendor search over active vendors, keyset-paginated by the chosen sort with a signed cursor. */
export async function searchVendors(
  input: VendorSearch,
  query: VendorQuery,
  deps: VendorDeps,
  { countWithPage = false, statsWithPage = false }: { countWithPage?: boolean; statsWithPage?: boolean } = {},
): Promise<Page<Keyed> & { categoryStats: () => Promise<Record<string, number>> }> {
  const { first, after, sortBy, ...filters } = input;
  const category = filters.category ? await resolveCategory(filters.category, deps.prisma) : undefined;
  const scope = filterScope('vendors', { ...filters, category, sortBy });
  const where = vendorFilter({ ...filters, category });
  const { field, dir } = SORT_KEYS[sortBy];
  const position = after === undefined ? undefined : deps.cursors.decode(after, scope, 'after');
  const count = () => deps.prisma.vendor.count({ where });
  // Category facet of the same search without its category filter, so a client can show counts beside each.
  const stats = async (): Promise<Record<string, number>> => {
    const groups = await deps.prisma.vendor.groupBy({
      by: ['serviceCategory'],
      where: vendorFilter({ ...filters, category: undefined }),
      _count: { _all: true },
    });
    return Object.fromEntries(groups.map((g) => [g.serviceCategory, g._count._all]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  };
  // The facet runs on another pooled connection while the page is read, when the caller will ask for it.
  const categoryStats = statsWithPage ? startedNow(stats) : stats;
  // With the facet asked for, the total is read off it: the facet is this search without its category filter, so the
  // search's vendors are the facet's category (or all of it). Counting them apart read the same rows again (a state
  // filter's heap pages twice on a large catalogue). Exact either way.
  const totalCount = statsWithPage
    ? async () => {
        const facet = await categoryStats();
        return category === undefined ? Object.values(facet).reduce((sum, n) => sum + n, 0) : (facet[category] ?? 0);
      }
    : countWithPage
      ? startedNow(count)
      : count;

  const rows = (await deps.prisma.vendor.findMany(
    Object.assign({}, withKeyColumns(query), {
      where: position ? { AND: [where, afterPosition(field, dir, position)] } : where,
      // createdAt is never null; Prisma accepts a nulls position only on nullable columns.
      orderBy: [field === 'createdAt' ? { createdAt: dir } : { [field]: { sort: dir, nulls: 'last' as const } }, { id: 'asc' as const }],
      take: first + 1,
    }),
  )) as unknown as Keyed[];
  const hasNextPage = rows.length > first;
  const value = (v: Keyed) => (field === 'createdAt' ? v.createdAt.toISOString() : v[field]);
  return {
    nodes: hasNextPage ? rows.slice(0, first) : rows,
    hasNextPage,
    hasPreviousPage: position !== undefined,
    cursorOf: (v) => deps.cursors.encode([value(v), v.id], scope),
    totalCount,
    categoryStats,
  };
}

/** The sort column and id must be loaded to sign the cursor, whatever the caller selected. */
function withKeyColumns(query: VendorQuery): VendorQuery {
  if (!query.select) return query;
  return {
    select: Object.assign({}, query.select, { id: true, createdAt: true, startingPrice: true, yearsInBusiness: true, weddingsCompleted: true }),
  };
}

/** Rows strictly after a keyset position under ORDER BY field dir NULLS LAST, id ASC. */
function afterPosition(field: SortField, dir: 'asc' | 'desc', position: unknown[]): Prisma.VendorWhereInput {
  const [raw, id] = position;
  if (typeof id !== 'string' || !(raw === null || typeof raw === 'number' || typeof raw === 'string'))
    throw new ApiError('invalid_cursor', { param: 'after' });
  const value = field === 'createdAt' ? new Date(String(raw)) : raw;
  if (value === null) return { [field]: null, id: { gt: id } };
  const after: Prisma.VendorWhereInput[] = [{ [field]: { [dir === 'asc' ? 'gt' : 'lt']: value } }, { [field]: value, id: { gt: id } }];
  // Rows without a value sort last, so they all come after any row that has one (createdAt is never null).
  if (field !== 'createdAt') after.push({ [field]: null });
  return { OR: after };
}

async function resolveCategory(given: string, prisma: PrismaClient): Promise<string> {
  const categories = await vendorCategorySlugs(prisma);
  const slug = slugify(given);
  const match = categories.find((c) => c.slug === slug || slugify(c.name) === slug);
  if (!match) {
    throw new ApiError('invalid_parameters', {
      problems: [{ param: 'category', problem: `must be one of ${categories.map((c) => c.slug).join(', ')}` }],
    });
  }
  return match.slug;
}

/**
 * Text matched in any case. Prisma writes `contains` and insensitive `equals` as ILIKE with the value in the pattern as
 * it is: escaped, % and _ are characters of a name (unescaped, state=% matched every vendor).
 */
const containing = (text: string) => ({ contains: likeEscaped(text), mode: 'insensitive' as const });
const equalInAnyCase = (text: string) => ({ equals: likeEscaped(text), mode: 'insensitive' as const });

function vendorFilter(f: Omit<VendorSearch, 'first' | 'after' | 'sortBy'>): Prisma.VendorWhereInput {
  const and: Prisma.VendorWhereInput[] = [{ active: true }];
  if (f.category) and.push({ serviceCategory: f.category });
  if (f.state) and.push({ OR: [{ primaryStateSlug: slugify(f.state) }, { primaryState: equalInAnyCase(f.state) }] });
  if (f.city) and.push({ OR: [{ primaryCitySlug: slugify(f.city) }, { primaryCity: equalInAnyCase(f.city) }] });
  if (f.location) {
    // Documented rule: the text is contained in the primary city or state (any case), or names a service area.
    and.push({
      OR: [
        { primaryCity: containing(f.location) },
        { primaryState: containing(f.location) },
        { primaryCitySlug: slugify(f.location) },
        { serviceAreas: { has: titleCase(f.location) } },
      ],
    });
  }
  if (f.priceMin !== undefined || f.priceMax !== undefined) and.push({ startingPrice: { gte: f.priceMin, lte: f.priceMax } });
  if (f.search) {
    and.push({
      OR: [
        { businessName: containing(f.search) },
        { tagline: containing(f.search) },
        { bio: containing(f.search) },
        { specialties: { has: f.search.toLowerCase() } },
      ],
    });
  }
  if (f.featured === true) and.push({ featured: true });
  if (f.featured === false) and.push({ OR: [{ featured: false }, { featured: null }] });
  return { AND: and };
}

const titleCase = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/\b\w/g, (c) => c.toUpperCase());

/** A vendor with its first 5 photos, primary first: the §4.9 detail. */
export type VendorDetailRow = Vendor & { photos: VendorPhoto[] };

const PHOTO: RelatedModel = { name: 'VendorPhoto', columns: new Set<string>(Object.values(Prisma.VendorPhotoScalarFieldEnum)) };

/**
 * Every column of the vendor by its Prisma name, and its photos in their declared order and number (VENDOR_PHOTOS,
 * also Vendor.photos' query), as JSON in the same row: read through the driver as venues are (venue-rows.ts says
 * why). The row is a superset of any selection GraphQL plans for Vendor, which the schema's build checks against
 * VENDOR_DETAIL_READ.
 */
const DETAIL_SELECT = `SELECT ${modelColumns(Prisma.VendorScalarFieldEnum, 'v', ['createdAt'])},
  (SELECT COALESCE(json_agg(p ORDER BY ${orderBySql(VENDOR_PHOTOS, PHOTO, 'p')}), '[]'::json)
     FROM ${relatedRowsSql(VENDOR_PHOTOS, PHOTO, 'p', { foreignKey: 'vendorId', parent: 'v.id' })}) AS photos
  FROM "Vendor" v WHERE v.slug = $1 AND v.active`;

/** What the vendor detail's row serves of a plan: every column, and the photos in their shape. */
export const VENDOR_DETAIL_READ: PlannedRead = {
  name: 'vendor detail read',
  columns: new Set<string>(Object.values(Prisma.VendorScalarFieldEnum)),
  relations: new Map([['photos', { shape: VENDOR_PHOTOS, model: PHOTO }]]),
};

/** §4.9: one listed (active) vendor; vendor_not_found otherwise. */
export async function getVendor(rawSlug: unknown, deps: Pick<VendorDeps, 'readRows'>): Promise<VendorDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  const [vendor] = slug && slug.length <= 300 ? await deps.readRows<VendorDetailRow>(DETAIL_SELECT, [slug]) : [];
  if (!vendor) throw new ApiError('vendor_not_found', { param: 'slug', message: `No listed vendor has the slug '${slug}'.` });
  return vendor;
}

/** The categories with their active vendor counts, in order (`which`: only these slugs): one statement. */
const CATEGORIES_WITH_COUNTS = (which: string) => `
  SELECT c.name, c.slug, coalesce(n.n, 0)::int AS "vendorCount"
    FROM "VendorCategory" c
    LEFT JOIN (SELECT "serviceCategory" AS slug, count(*) AS n FROM "Vendor" WHERE active GROUP BY 1) n ON n.slug = c.slug
   ${which}
   ORDER BY c.position, c.slug`;
const ALL_CATEGORIES = CATEGORIES_WITH_COUNTS('');
const CATEGORIES_BY_SLUG = CATEGORIES_WITH_COUNTS('WHERE c.slug = ANY($1::text[])');

type CategoryCount = { name: string; slug: string; vendorCount: number };

/**
 * §4.8: the 11 categories in order with their active vendor counts, in one statement: a report, not a model read, so
 * plain SQL through the driver (a category list and a groupBy through Prisma cost twice the route's CPU).
 */
export async function listVendorCategories(deps: { readRows: RowReader }) {
  return deps.readRows<CategoryCount>(ALL_CATEGORIES, []);
}

/** Vendors by id for node(id:)/nodes(ids:): listed (active) ones only, as search and detail show (one statement). */
export function visibleVendorsById(ids: string[], query: VendorQuery, deps: Pick<VendorDeps, 'prisma'>) {
  return deps.prisma.vendor.findMany(Object.assign({}, query, { where: { id: { in: ids }, active: true } }));
}

/** Vendor categories by slug for node(id:)/nodes(ids:), with their active vendor counts as §4.8 lists them. */
export async function vendorCategoriesBySlug(slugs: string[], deps: { readRows: RowReader }) {
  return deps.readRows<CategoryCount>(CATEGORIES_BY_SLUG, [slugs]);
}
