import type { PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import type { RowReader } from '../db/row-reader.js';
import { slugify } from '../catalogue/slug.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import { startedNow, type Page } from '../pagination/page.js';
import type { VendorSearch, VendorSort } from './vendors.inputs.js';
import {
  countVendors,
  countVendorsByCategory,
  readCategoryCounts,
  readCategoryNames,
  readVendorDetail,
  readVendorPage,
  readVendorsById,
  type VendorDetailRow,
  type VendorKeyColumns,
  type VendorOrder,
  type VendorQuery,
} from './vendors.queries.js';

export interface VendorDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  cursors: CursorCodec;
}

/** The column each sort orders by (then id, so the order is total and stable). Nulls always come last. */
const SORT_KEYS: Record<VendorSort, Pick<VendorOrder, 'field' | 'dir'>> = {
  newest: { field: 'createdAt', dir: 'desc' },
  price_low_to_high: { field: 'startingPrice', dir: 'asc' },
  price_high_to_low: { field: 'startingPrice', dir: 'desc' },
  experience: { field: 'yearsInBusiness', dir: 'desc' },
  weddings_completed: { field: 'weddingsCompleted', dir: 'desc' },
};

/** §4.7 vendor search over active vendors, keyset-paginated by the chosen sort with a signed cursor. */
export async function searchVendors(
  input: VendorSearch,
  query: VendorQuery,
  deps: VendorDeps,
  { countWithPage = false, statsWithPage = false }: { countWithPage?: boolean; statsWithPage?: boolean } = {},
): Promise<Page<VendorKeyColumns> & { categoryStats: () => Promise<Record<string, number>> }> {
  const { first, after, sortBy, ...given } = input;
  const category = given.category ? await resolveCategory(given.category, deps.prisma) : undefined;
  const filters = { ...given, category };
  const scope = filterScope('vendors', { ...filters, sortBy });
  const { field, dir } = SORT_KEYS[sortBy];
  const position = after === undefined ? undefined : afterOf(field, deps.cursors.decode(after, scope, 'after'));
  const count = () => countVendors(filters, deps.prisma);
  // Category facet of the same search without its category filter, so a client can show counts beside each.
  const stats = async (): Promise<Record<string, number>> => {
    const counts = await countVendorsByCategory({ ...filters, category: undefined }, deps.prisma);
    return Object.fromEntries(counts.sort(([a], [b]) => a.localeCompare(b)));
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

  const rows = await readVendorPage(filters, { field, dir, after: position }, first + 1, query, deps.prisma);
  const hasNextPage = rows.length > first;
  const value = (v: VendorKeyColumns) => (field === 'createdAt' ? v.createdAt.toISOString() : v[field]);
  return {
    nodes: hasNextPage ? rows.slice(0, first) : rows,
    hasNextPage,
    hasPreviousPage: position !== undefined,
    cursorOf: (v) => deps.cursors.encode([value(v), v.id], scope),
    totalCount,
    categoryStats,
  };
}

/** A signed cursor's position as the order's keyset: a key of the column's type (createdAt as ISO text), then the id. */
function afterOf(field: VendorOrder['field'], [raw, id]: unknown[]): VendorOrder['after'] {
  if (typeof id !== 'string' || !(raw === null || typeof raw === 'number' || typeof raw === 'string'))
    throw new ApiError('invalid_cursor', { param: 'after' });
  return { value: field === 'createdAt' ? new Date(String(raw)) : raw, id };
}

async function resolveCategory(given: string, prisma: PrismaClient): Promise<string> {
  const categories = await readCategoryNames(prisma);
  const slug = slugify(given);
  const match = categories.find((c) => c.slug === slug || slugify(c.name) === slug);
  if (!match) {
    throw new ApiError('invalid_parameters', {
      problems: [{ param: 'category', problem: `must be one of ${categories.map((c) => c.slug).join(', ')}` }],
    });
  }
  return match.slug;
}

/** §4.9: one listed (active) vendor; vendor_not_found otherwise. */
export async function getVendor(rawSlug: unknown, deps: Pick<VendorDeps, 'readRows'>): Promise<VendorDetailRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  const vendor = slug && slug.length <= 300 ? await readVendorDetail(slug, deps.readRows) : undefined;
  if (!vendor) throw new ApiError('vendor_not_found', { param: 'slug', message: `No listed vendor has the slug '${slug}'.` });
  return vendor;
}

/** §4.8: the 11 categories in order with their active vendor counts. */
export function listVendorCategories(deps: { readRows: RowReader }) {
  return readCategoryCounts(deps.readRows);
}

/** Vendors by id for node(id:)/nodes(ids:): listed (active) ones only, as search and detail show. */
export function visibleVendorsById(ids: string[], query: VendorQuery, deps: Pick<VendorDeps, 'prisma'>) {
  return readVendorsById(ids, query, deps.prisma);
}

/** Vendor categories by slug for node(id:)/nodes(ids:), with their active vendor counts as §4.8 lists them. */
export function vendorCategoriesBySlug(slugs: string[], deps: { readRows: RowReader }) {
  return readCategoryCounts(deps.readRows, slugs);
}
