import { z } from 'zod';
import { decimalIn, parseInput, wholeNumberIn } from '../errors/validation.js';

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
const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** GET /api/v1/venues and GraphQL `venues` (§4.1). Keys are the GraphQL argument names. */
export const VenueSearchInput = z
  .object({
    state: text(100).optional(),
    city: text(100).optional(),
    venueType: text(50).optional(),
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
  })
  .refine((v) => v.capacityMin === undefined || v.capacityMax === undefined || v.capacityMin <= v.capacityMax, {
    path: ['capacityMax'],
    error: 'must not be less than capacity_min',
  })
  .refine((v) => v.priceMin === undefined || v.priceMax === undefined || v.priceMin <= v.priceMax, {
    path: ['priceMax'],
    error: 'must not be less than price_min',
  });

export type VenueSearch = z.output<typeof VenueSearchInput>;

/** §4.1 search arguments parsed, or a 400 naming each failing one. */
export const parseVenueSearch = (input: unknown): VenueSearch => parseInput(VenueSearchInput, input);

/** Characters a venue slug can have (§4.2 invalid_slug): lowercase words joined by hyphens and slashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 300;
