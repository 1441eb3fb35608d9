import { z } from 'zod';
import { decimalIn, nonEmptyText, ofLength, ordered, parseInput, wholeNumberIn, type InputRule } from '../errors/validation.js';
import { STORABLE_CHARACTER } from '../errors/storable-text.js';
import { WORD_CHARACTER, searchWords } from './venue-words.js';

/** Named values of §4.1 (documentation and examples; venue_type matches any property type by substring). */
export const NAMED_VENUE_TYPES = [
  'estate',
  'villa',
  'ranch',
  'mansion',
  'cabin',
  'castle',
  'chalet',
  'lodge',
  'cottage',
  'barn',
  'barndominium',
  'hacienda',
  'farmhouse',
  'chateau',
] as const;
export const NAMED_AMENITIES = ['pool', 'hot-tub', 'ocean-view', 'mountain-view', 'outdoor-ceremony', 'pet-friendly'] as const;

// §4.1 bounds only limit; the filters' bounds are ours, far past any listing, and stated in every refusal.
const price = decimalIn(0, 10_000_000, 1000);

/** The orders of a venue search; `recommended` (slug order) is the default. */
export const VENUE_SORTS = ['recommended', 'distance', 'relevance', 'price_asc', 'price_desc', 'capacity_desc'] as const;
export type VenueSort = (typeof VENUE_SORTS)[number];

/** The facets a venue search can count (`facets`). */
export const VENUE_FACETS = ['venue_type', 'amenities', 'state', 'price_band', 'capacity_band'] as const;
export type VenueFacet = (typeof VENUE_FACETS)[number];

/** Kilometres around `near` or `near_city` when radius_km is not given. */
export const DEFAULT_RADIUS_KM = 50;

/** A coordinate in degrees, its refusal saying which number of the list is out of range. */
const degrees = (limit: number, which: string) => {
  const range = `${which} must be -${limit} to ${limit}`;
  return z
    .number({ error: `${which} must be a plain decimal number` })
    .min(-limit, { error: range })
    .max(limit, { error: range });
};

/** LAT,LNG: REST sends it comma-separated, GraphQL as a list of two numbers. */
const point = z.tuple([degrees(90, 'latitude (first number)'), degrees(180, 'longitude (second number)')], {
  error: 'must be LAT,LNG: two decimal numbers such as 35.6,-82.55',
});

/**
 * minLng,minLat,maxLng,maxLat (GeoJSON's order). A box over the antimeridian has minLng above maxLng; the latitudes
 * may come in either order.
 */
const box = z.tuple(
  [
    degrees(180, 'minLng (first number)'),
    degrees(90, 'minLat (second number)'),
    degrees(180, 'maxLng (third number)'),
    degrees(90, 'maxLat (fourth number)'),
  ],
  { error: 'must be minLng,minLat,maxLng,maxLat: four decimal numbers' },
);

/**
 * Words to look for: 2 to 100 characters once trimmed, with a letter or a digit. The pattern states both for a
 * generated client: a word character with a non-space character after it or before it.
 */
const QUERY_PATTERN = `^${STORABLE_CHARACTER}*(?:${WORD_CHARACTER}${STORABLE_CHARACTER}*[^\\s\\u0000]|[^\\s\\u0000]${STORABLE_CHARACTER}*${WORD_CHARACTER})${STORABLE_CHARACTER}*$`;
const words = ofLength(z.string().trim(), {
  min: 2,
  max: 100,
  tooShort: 'must be 2 to 100 characters',
  tooLong: 'must be 2 to 100 characters',
  pattern: QUERY_PATTERN,
}).refine((q) => searchWords(q).length > 0, { error: 'must contain a letter or a digit' });

/** The rules between discovery's parameters, enforced and published (x-dependencies) from here. */
const POINT = ['near', 'nearCity'] as const;
const DISCOVERY_RULES: InputRule[] = [
  {
    relation: { kind: 'zeroOrOne', keys: [...POINT, 'bbox'] },
    refusal: (input) =>
      input.bbox === undefined
        ? { path: 'nearCity', error: 'cannot be combined with near: give one point' }
        : { path: 'bbox', error: 'cannot be combined with near or near_city' },
  },
  { relation: { kind: 'requires', key: 'radiusKm', needs: POINT }, refusal: () => ({ path: 'radiusKm', error: 'needs near or near_city' }) },
  {
    relation: { kind: 'requires', key: 'sort', equals: 'distance', needs: POINT },
    refusal: () => ({ path: 'sort', error: 'distance needs near or near_city' }),
  },
  { relation: { kind: 'requires', key: 'sort', equals: 'relevance', needs: ['q'] }, refusal: () => ({ path: 'sort', error: 'relevance needs q' }) },
];

/**
 * GET /api/v1/venues and GraphQL `venues` (§4.1, and discovery: place, words, order, facets). Keys are the GraphQL
 * argument names; the field carries this schema, so the OpenAPI document states these bounds
 * (src/graphql/input-schema.ts). Rules between parameters are checked after each parameter's own.
 */
export const VenueSearchInput = ordered(
  z.object({
    state: nonEmptyText(100).optional(),
    city: nonEmptyText(100).optional(),
    venueType: nonEmptyText(50).optional(),
    capacityMin: wholeNumberIn(0, 10_000).optional(),
    capacityMax: wholeNumberIn(0, 10_000).optional(),
    priceMin: price.optional(),
    priceMax: price.optional(),
    bedroomsMin: wholeNumberIn(0, 1_000).optional(),
    amenities: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9-]{1,50}$/, { error: 'must be comma-separated amenity names such as pool,hot-tub' }),
      )
      .max(20)
      .optional(),
    near: point.optional(),
    nearCity: nonEmptyText(100).optional(),
    radiusKm: decimalIn(1, 500, DEFAULT_RADIUS_KM).optional(),
    bbox: box.optional(),
    q: words.optional(),
    sort: z.enum(VENUE_SORTS, { error: `must be one of ${VENUE_SORTS.join(', ')}` }).optional(),
    facets: z
      .array(z.enum(VENUE_FACETS, { error: `must be comma-separated names among ${VENUE_FACETS.join(', ')}` }))
      .max(VENUE_FACETS.length)
      .optional(),
    first: wholeNumberIn(1, 100).default(20),
    after: z.string().max(2000).optional(),
  }),
  [
    { lower: 'capacityMin', upper: 'capacityMax', error: 'must not be less than capacity_min' },
    { lower: 'priceMin', upper: 'priceMax', error: 'must not be less than price_min' },
  ],
  DISCOVERY_RULES,
);

export type VenueSearch = z.output<typeof VenueSearchInput>;

/** §4.1 search arguments parsed, or a 400 naming each failing one. */
export const parseVenueSearch = (input: unknown): VenueSearch => parseInput(VenueSearchInput, input);

/** Characters a venue slug can have (§4.2 invalid_slug): lowercase words joined by hyphens and slashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 300;

/** A venue slug that could exist (§4.2): anything else is invalid_slug, never a lookup. */
export const VenueSlug = z.string().max(SLUG_MAX_LENGTH).regex(SLUG_PATTERN);
