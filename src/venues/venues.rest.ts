import type { RestRoute } from '../rest/route.js';
import { NAMED_AMENITIES, NAMED_VENUE_TYPES } from './venues.inputs.js';

const PRICING = /* GraphQL */ `
  fragment Pricing on VenuePricing {
    priceUnit currency minNights weekdayBase weekendBase extraNight
    startingTotal { amount nights rate includesFees }
    rateDate
  }`;

/** §2.2 list item fields. */
const LIST_ITEM = /* GraphQL */ `
  fragment VenueListItem on Venue {
    slug name city state country propertyType venueType latitude longitude
    capacityMin capacityMax bedrooms beds bathrooms gatheringSpaces
    priceRange pricing { ...Pricing } heroImage seoDescription amenities url
  }`;

export const venueRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/venues',
    operationId: 'searchVenues',
    summary: 'Search venues',
    description:
      'Published venues ordered by slug (stable). Capacity bounds compare with the sleeping capacity (capacity_max). ' +
      "Price bounds compare with pricing.starting_total.amount in each venue's own currency; unpriced venues are excluded when either is used. " +
      'Unknown or repeated parameters are refused.',
    tag: 'Venues',
    document: /* GraphQL */ `
      query searchVenues($state: String, $city: String, $venueType: String, $capacityMin: Int, $capacityMax: Int,
        $priceMin: Float, $priceMax: Float, $bedroomsMin: Int, $amenities: [String!], $limit: Int, $cursor: String) {
        venues(state: $state, city: $city, venueType: $venueType, capacityMin: $capacityMin, capacityMax: $capacityMax,
          priceMin: $priceMin, priceMax: $priceMax, bedroomsMin: $bedroomsMin, amenities: $amenities, first: $limit, after: $cursor) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { ...VenueListItem }
        }
      }
      ${LIST_ITEM}${PRICING}`,
    envelope: { kind: 'cursorPage' },
    errors: ['invalid_parameters', 'invalid_cursor'],
    paramDocs: {
      state: { description: 'State or region slug.', example: 'california' },
      city: { description: 'City slug.', example: 'napa' },
      venue_type: {
        description: `Case-insensitive substring of the property type. Named values: ${NAMED_VENUE_TYPES.join(', ')}.`,
        example: 'estate',
      },
      capacity_min: { description: 'Venues sleeping at least this many.' },
      capacity_max: { description: 'Venues sleeping at most this many.' },
      price_min: { description: "Lower bound on pricing.starting_total.amount, in the venue's currency." },
      price_max: { description: "Upper bound on pricing.starting_total.amount, in the venue's currency." },
      bedrooms_min: { description: 'Minimum bedrooms.' },
      amenities: { description: `Comma-separated; every one must be present. Named values: ${NAMED_AMENITIES.join(', ')}.`, example: 'pool,hot-tub' },
      limit: { description: 'Page size.', default: 20 },
      cursor: { description: 'pagination.next_cursor of the previous page, with the same filters.' },
    },
  },
  {
    method: 'GET',
    path: '/venues/{slug}',
    operationId: 'getVenue',
    summary: 'Venue detail',
    description: "The venue's full slug from search results, URL-encoded so each slash becomes %2F (unencoded slashes are accepted too).",
    tag: 'Venues',
    document: /* GraphQL */ `
      query getVenue($slug: String!) {
        venue(slug: $slug) {
          ...VenueListItem
          description accommodates categories
          photos { url category isFeatured position }
          totalPhotos
          testimonials { guestName rating review eventDate }
        }
      }
      ${LIST_ITEM}${PRICING}`,
    envelope: { kind: 'object' },
    errors: ['invalid_slug', 'venue_not_found', 'venue_detail_rate_limit_exceeded'],
    paramDocs: { slug: { description: 'Full venue slug, slashes encoded as %2F.', example: 'california%2Fnapa%2Fvilla-rosa' } },
  },
];
