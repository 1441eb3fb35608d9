import type { RestRoute } from '../rest/route.js';
import { NAMED_AMENITIES, NAMED_VENUE_TYPES } from './venues.inputs.js';
import { taggedColumns } from '../graphql/model-columns.js';

const PRICING = /* GraphQL */ `
  fragment Pricing on VenuePricing {
    priceUnit currency minNights weekdayBase weekendBase extraNight
    startingTotal { amount nights rate includesFees }
    rateDate
  }`;

/** Every facet a search can count, as the route answers them (and tests read them). */
export const FACETS = /* GraphQL */ `facets {
  venueType { value count }
  amenities { value count }
  state { value name count }
  priceBand { currency min max count }
  capacityBand { min max count }
}`;

/** §2.3's fields that show a column as stored, as declared in prisma/schema.prisma (venues.graphql.ts shows them). */
const DETAIL_COLUMNS = taggedColumns('Venue', 'detail')
  .map(({ name }) => name)
  .join(' ');

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
      'Published venues, in slug order unless `sort` names another (every order is stable across pages). Capacity bounds compare with the sleeping capacity (capacity_max). ' +
      "Price bounds compare with pricing.starting_total.amount in each venue's own currency; unpriced venues are excluded when either is used. " +
      'Unknown or repeated parameters are refused.',
    tag: 'Venues',
    document: /* GraphQL */ `
      query searchVenues($state: String, $city: String, $venueType: String, $capacityMin: Int, $capacityMax: Int,
        $priceMin: Float, $priceMax: Float, $bedroomsMin: Int, $amenities: [String!], $near: [Float!], $nearCity: String,
        $radiusKm: Float, $bbox: [Float!], $q: String, $sort: VenueSort, $facets: [VenueFacet!], $limit: Int, $cursor: String) {
        venues(state: $state, city: $city, venueType: $venueType, capacityMin: $capacityMin, capacityMax: $capacityMax,
          priceMin: $priceMin, priceMax: $priceMax, bedroomsMin: $bedroomsMin, amenities: $amenities, near: $near,
          nearCity: $nearCity, radiusKm: $radiusKm, bbox: $bbox, q: $q, sort: $sort, facets: $facets, first: $limit, after: $cursor) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { ...VenueListItem distanceKm }
          ${FACETS}
        }
      }
      ${LIST_ITEM}${PRICING}`,
    // Answers without the discovery parameters stay as they were: distance_km and facets are left out when null.
    envelope: { kind: 'cursorPage', extras: ['facets'], optional: ['facets'], optionalItemKeys: ['distance_km'] },
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
      near: {
        description: 'LAT,LNG: venues within radius_km of the point, each with distance_km. Venues without coordinates are left out.',
        example: [35.6, -82.55],
      },
      near_city: {
        description: 'A city of the catalogue by slug or name (any case) as the point; unknown names are refused with up to 3 close names.',
        example: 'asheville',
      },
      radius_km: { description: 'Kilometres around near or near_city.', default: 50 },
      bbox: {
        description: 'minLng,minLat,maxLng,maxLat: venues inside the box (over the antimeridian when minLng > maxLng). Not with near or near_city.',
        example: [-83.2, 35.2, -82.1, 36.0],
      },
      q: {
        description:
          'Words in the name, city, state, venue type, amenities or description; every word must match. A word of 5 letters or more also matches a word one letter away (tuscanny finds Tuscany).',
        example: 'lakefront barn',
      },
      sort: {
        description:
          "recommended (slug order), distance (needs a point), relevance (needs q), price_asc/price_desc (starting total in USD at the day's rate; unpriced last), capacity_desc.",
        default: 'recommended',
      },
      facets: {
        description: 'Comma-separated: adds facets, each counting its values under the other filters (its own filter left out).',
        example: ['venue_type', 'amenities'],
      },
      limit: { description: 'Page size.', default: 20 },
      cursor: { description: 'pagination.next_cursor of the previous page, with the same filters and sort.' },
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
          ${DETAIL_COLUMNS}
          photos { url category isFeatured position }
          testimonials { guestName rating review eventDate }
        }
      }
      ${LIST_ITEM}${PRICING}`,
    envelope: { kind: 'object' },
    errors: ['invalid_slug', 'venue_not_found', 'venue_detail_rate_limit_exceeded'],
    paramDocs: { slug: { description: 'Full venue slug, slashes encoded as %2F.', example: 'california%2Fnapa%2Fvilla-rosa' } },
  },
];
