import { z } from 'zod';
import { decimalIn, nonEmptyText, ordered, parseInput, wholeNumberIn } from '../errors/validation.js';

/** §4.7 sort_by values; newest is the default. */
/** The 11 vendor categories (§2.9), as slugs; the vendor_categories table holds the same (a test compares them). */
export const VENDOR_CATEGORY_SLUGS = [
  'photography',
  'videography',
  'florists',
  'catering',
  'wedding-planners',
  'music-and-entertainment',
  'hair-and-makeup',
  'officiants',
  'cakes-and-desserts',
  'rentals-and-decor',
  'transportation',
] as const;

export const VENDOR_SORTS = ['newest', 'price_low_to_high', 'price_high_to_low', 'experience', 'weddings_completed'] as const;
export type VendorSort = (typeof VENDOR_SORTS)[number];

const price = decimalIn(0, 10_000_000, 1000);

/**
 * GET /api/v1/vendors and GraphQL `vendors` (§4.7). Keys are the GraphQL argument names; the field carries this schema,
 * so the OpenAPI document states these bounds (src/graphql/input-schema.ts).
 */
export const VendorSearchInput = ordered(
  z.object({
    // A slug or a name; the service refuses any other category (resolveCategory, against the vendor_categories rows,
    // which hold these slugs): clients are told the slugs.
    category: nonEmptyText(100)
      .meta({ enum: [...VENDOR_CATEGORY_SLUGS] })
      .optional(),
    location: nonEmptyText(100).optional(),
    state: nonEmptyText(100).optional(),
    city: nonEmptyText(100).optional(),
    priceMin: price.optional(),
    priceMax: price.optional(),
    search: nonEmptyText(200).optional(),
    featured: z.boolean({ error: 'must be true or false' }).optional(),
    sortBy: z.enum(VENDOR_SORTS, { error: `must be one of ${VENDOR_SORTS.join(', ')}` }).default('newest'),
    first: wholeNumberIn(1, 100).default(20),
    after: z.string().max(2000).optional(),
  }),
  [{ lower: 'priceMin', upper: 'priceMax', error: 'must not be less than price_min' }],
);

export type VendorSearch = z.output<typeof VendorSearchInput>;

/** §4.7 search arguments parsed, or a 400 naming each failing one. */
export const parseVendorSearch = (input: unknown): VendorSearch => parseInput(VendorSearchInput, input);
