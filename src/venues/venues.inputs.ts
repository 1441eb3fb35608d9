import { z } from 'zod';
import { decimalIn, nonEmptyText, ordered, parseInput, wholeNumberIn } from '../errors/validation.js';

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

/**
 * GET /api/v1/venues and GraphQL `venues` (§4.1). Keys are the GraphQL argument names; the field carries this schema,
 * so the OpenAPI document states these bounds (src/graphql/input-schema.ts).
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
    first: wholeNumberIn(1, 100).default(20),
    after: z.string().max(2000).optional(),
  }),
  [
    { lower: 'capacityMin', upper: 'capacityMax', error: 'must not be less than capacity_min' },
    { lower: 'priceMin', upper: 'priceMax', error: 'must not be less than price_min' },
  ],
);

export type VenueSearch = z.output<typeof VenueSearchInput>;

/** §4.1 search arguments parsed, or a 400 naming each failing one. */
export const parseVenueSearch = (input: unknown): VenueSearch => parseInput(VenueSearchInput, input);

/** Characters a venue slug can have (§4.2 invalid_slug): lowercase words joined by hyphens and slashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 300;

/** A venue slug that could exist (§4.2): anything else is invalid_slug, never a lookup. */
export const VenueSlug = z.string().max(SLUG_MAX_LENGTH).regex(SLUG_PATTERN);
