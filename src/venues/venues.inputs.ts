import { z } from 'zod';

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

const count = (max: number) => z.int({ error: 'must be an integer' }).min(0).max(max);
const price = z.number({ error: 'must be a number' }).min(0).max(10_000_000);
const text = (max: number) => z.string().trim().min(1, { error: 'must not be empty' }).max(max);

/** GET /api/v1/venues and GraphQL `venues` (§4.1). Keys are the GraphQL argument names. */
export const VenueSearchInput = z
  .object({
    state: text(100).optional(),
    city: text(100).optional(),
    venueType: text(50).optional(),
    capacityMin: count(10_000).optional(),
    capacityMax: count(10_000).optional(),
    priceMin: price.optional(),
    priceMax: price.optional(),
    bedroomsMin: count(1_000).optional(),
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
    first: z.int({ error: 'must be an integer' }).min(1).max(100).default(20),
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

/** Characters a venue slug can have (§4.2 invalid_slug): lowercase words joined by hyphens and slashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 300;
