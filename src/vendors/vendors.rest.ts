import type { RestRoute } from '../rest/route.js';
import { parseVendorSearch } from './vendors.inputs.js';
import { checkedWith } from '../graphql/context.js';

/** §2.8 list item fields. */
const LIST_ITEM = /* GraphQL */ `
  fragment VendorListItem on Vendor {
    slug businessName serviceCategory tagline primaryCity primaryState bio
    serviceSubcategories serviceAreas specialties startingPrice priceUnit yearsInBusiness weddingsCompleted
    featured featuredImageUrl logoUrl isAffiliateOnly affiliateLink url
  }`;

export const vendorRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/vendors',
    operationId: 'searchVendors',
    summary: 'Search vendors',
    description:
      'Active vendors. location matches text contained in the primary city or state (any case) or a service area name; ' +
      'search matches text in the business name, tagline or bio (any case) or a specialty. Nulls sort last. ' +
      'category_stats counts the vendors matching the other filters, by category. Unknown or repeated parameters are refused.',
    tag: 'Vendors',
    document: /* GraphQL */ `
      query searchVendors($category: String, $location: String, $state: String, $city: String, $priceMin: Float, $priceMax: Float,
        $search: String, $featured: Boolean, $sortBy: VendorSort, $limit: Int, $cursor: String) {
        vendors(category: $category, location: $location, state: $state, city: $city, priceMin: $priceMin, priceMax: $priceMax,
          search: $search, featured: $featured, sortBy: $sortBy, first: $limit, after: $cursor) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { ...VendorListItem }
          categoryStats
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'cursorPage', extras: ['category_stats'] },
    check: (args) => checkedWith(parseVendorSearch, args),
    errors: ['invalid_parameters', 'invalid_cursor'],
    paramDocs: {
      category: { description: 'Category slug or name (GET /vendors/categories).', example: 'photography' },
      sort_by: { description: 'Sort order.', default: 'newest' },
      limit: { description: 'Page size.', default: 20 },
      cursor: { description: 'pagination.next_cursor of the previous page, with the same filters and sort.' },
      featured: { description: 'true: featured only; false: not featured.' },
    },
  },
  {
    method: 'GET',
    path: '/vendors/categories',
    operationId: 'listVendorCategories',
    summary: 'Vendor categories',
    tag: 'Vendors',
    document: /* GraphQL */ `query listVendorCategories { vendorCategories { name slug vendorCount } }`,
    envelope: { kind: 'object' },
    errors: [],
  },
  {
    method: 'GET',
    path: '/vendors/{slug}',
    operationId: 'getVendor',
    summary: 'Vendor detail',
    tag: 'Vendors',
    document: /* GraphQL */ `
      query getVendor($slug: String!) {
        vendor(slug: $slug) {
          ...VendorListItem
          photos { url category altText }
          totalPhotos website instagram facebook tiktok pricingStructure portfolioDescription
          vendorPolicies { booking payment cancellation timeline insurance }
          averageRating reviewCount
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'object' },
    errors: ['vendor_not_found'],
    paramDocs: { slug: { description: 'Vendor slug, slashes encoded as %2F.' } },
  },
];
