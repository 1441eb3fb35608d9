import { Prisma, type PrismaClient, type Vendor, type VendorPhoto } from '../generated/prisma/client.js';
import { modelColumns, type RowReader } from '../db/row-reader.js';
import { orderBySql, relatedRowsSql, type PlannedRead, type RelatedModel } from '../db/relation-shape.js';
import { likeEscaped } from '../db/like-pattern.js';
import { slugify } from '../catalogue/slug.js';
import { VENDOR_PHOTOS } from './vendor-relations.js';
import type { VendorSearch } from './vendors.inputs.js';

/**
 * The vendor module's reads: a search page, its count and category facet (§4.7), a vendor by slug (§4.9), the
 * categories with their counts (§4.8), vendors by id. Search goes through Prisma with the selection GraphQL asks for;
 * the detail and the category report are one statement each through the driver.
 */

/** The columns a vendor order keys on; a page's rows always carry them, so the service can sign its cursor. */
export type VendorKeyColumns = {
  id: string;
  createdAt: Date;
  startingPrice: number | null;
  yearsInBusiness: number | null;
  weddingsCompleted: number | null;
};

/** What GraphQL asks of a vendor row (plugin-prisma's query of the selection), or nothing: whole rows. */
export type VendorQuery = { include?: Prisma.VendorInclude; select?: Prisma.VendorSelect };

/** The §4.7 filters, the category already resolved to its slug. */
export type VendorFilters = Omit<VendorSearch, 'first' | 'after' | 'sortBy'>;

/** Rows by a column (then id, so the order is total and stable), nulls last; after a keyset position when given. */
export interface VendorOrder {
  field: keyof Omit<VendorKeyColumns, 'id'>;
  dir: 'asc' | 'desc';
  /** The last row of the previous page: its value of `field` (createdAt as a Date) and id. */
  after?: { value: Date | number | string | null; id: string };
}

/** `take` listed vendors matching the filters, in the order, with the key columns whatever the query selected. */
export async function readVendorPage(filters: VendorFilters, order: VendorOrder, take: number, query: VendorQuery, prisma: PrismaClient) {
  const where = vendorFilter(filters);
  const { field, dir, after } = order;
  const rows = await prisma.vendor.findMany(
    Object.assign({}, withKeyColumns(query), {
      where: after ? { AND: [where, afterPosition(field, dir, after)] } : where,
      // createdAt is never null; Prisma accepts a nulls position only on nullable columns.
      orderBy: [field === 'createdAt' ? { createdAt: dir } : { [field]: { sort: dir, nulls: 'last' as const } }, { id: 'asc' as const }],
      take,
    }),
  );
  return rows as unknown as VendorKeyColumns[];
}

/** How many listed vendors match the filters. */
export function countVendors(filters: VendorFilters, prisma: PrismaClient): Promise<number> {
  return prisma.vendor.count({ where: vendorFilter(filters) });
}

/** Listed vendors matching the filters, counted by category slug. */
export async function countVendorsByCategory(filters: VendorFilters, prisma: PrismaClient): Promise<Array<[string, number]>> {
  const groups = await prisma.vendor.groupBy({ by: ['serviceCategory'], where: vendorFilter(filters), _count: { _all: true } });
  return groups.map((g) => [g.serviceCategory, g._count._all]);
}

/** The sort column and id must be loaded to sign the cursor, whatever the caller selected. */
function withKeyColumns(query: VendorQuery): VendorQuery {
  if (!query.select) return query;
  return {
    select: Object.assign({}, query.select, { id: true, createdAt: true, startingPrice: true, yearsInBusiness: true, weddingsCompleted: true }),
  };
}

/** Rows strictly after a keyset position under ORDER BY field dir NULLS LAST, id ASC. */
function afterPosition(field: VendorOrder['field'], dir: 'asc' | 'desc', { value, id }: NonNullable<VendorOrder['after']>): Prisma.VendorWhereInput {
  if (value === null) return { [field]: null, id: { gt: id } };
  const after: Prisma.VendorWhereInput[] = [{ [field]: { [dir === 'asc' ? 'gt' : 'lt']: value } }, { [field]: value, id: { gt: id } }];
  // Rows without a value sort last, so they all come after any row that has one (createdAt is never null).
  if (field !== 'createdAt') after.push({ [field]: null });
  return { OR: after };
}

/**
 * Text contained, in any case. Prisma writes `contains` as ILIKE with the value in the pattern as it is: escaped, % and
 * _ are characters of a name (unescaped, location=% matched every vendor).
 */
const containing = (text: string) => ({ contains: likeEscaped(text), mode: 'insensitive' as const });

function vendorFilter(f: VendorFilters): Prisma.VendorWhereInput {
  const and: Prisma.VendorWhereInput[] = [{ active: true }];
  if (f.category) and.push({ serviceCategory: f.category });
  // A name in any case, with or without its accents, or a slug: each has the slug of the place (every vendor's place
  // slug is its name's, as venues' are), and one indexed column serves the count and facet without the rows.
  if (f.state) and.push({ primaryStateSlug: slugify(f.state) });
  if (f.city) and.push({ primaryCitySlug: slugify(f.city) });
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

/** The listed (active) vendor with this slug, or undefined. */
export async function readVendorDetail(slug: string, readRows: RowReader): Promise<VendorDetailRow | undefined> {
  const [vendor] = await readRows<VendorDetailRow>(DETAIL_SELECT, [slug]);
  return vendor;
}

/** Vendors by id, listed (active) ones only. */
export function readVendorsById(ids: string[], query: VendorQuery, prisma: PrismaClient) {
  return prisma.vendor.findMany(Object.assign({}, query, { where: { id: { in: ids }, active: true } }));
}

/** Every category's slug and name, in their order. */
export function readCategoryNames(prisma: PrismaClient): Promise<{ slug: string; name: string }[]> {
  return prisma.vendorCategory.findMany({ orderBy: { position: 'asc' }, select: { slug: true, name: true } });
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

export type CategoryCount = { name: string; slug: string; vendorCount: number };

/**
 * The categories with their active vendor counts, all of them or those slugs: a report, not a model read, so plain SQL
 * through the driver (a category list and a groupBy through Prisma cost twice the route's CPU).
 */
export function readCategoryCounts(readRows: RowReader, slugs?: string[]): Promise<CategoryCount[]> {
  return slugs === undefined ? readRows<CategoryCount>(ALL_CATEGORIES, []) : readRows<CategoryCount>(CATEGORIES_BY_SLUG, [slugs]);
}
