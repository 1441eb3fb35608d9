import { parseInput, wholeNumberIn } from '../errors/validation.js';
import { z } from 'zod';

/** §2.12 enumerations. */
export const INSPIRATION_STYLES = ['rustic', 'modern', 'bohemian', 'coastal', 'luxury', 'romantic', 'classic', 'minimalist'] as const;
export const INSPIRATION_SETTINGS = [
  'outdoor',
  'indoor',
  'garden',
  'mountain',
  'beach',
  'lakefront',
  'forest',
  'desert',
  'vineyard',
  'ballroom',
  'tent',
  'poolside',
] as const;
export const INSPIRATION_COLORS = [
  'neutral_white',
  'warm',
  'cool',
  'earth_tones',
  'pastel',
  'jewel_tones',
  'moody_dark',
  'vibrant',
  'monochrome',
] as const;
export const INSPIRATION_MOODS = ['elegant', 'romantic', 'serene', 'intimate', 'grand', 'celebratory', 'joyful', 'dramatic'] as const;
export const INSPIRATION_SEASONS = ['spring', 'summer', 'fall', 'winter'] as const;

/** One value of an enumeration, any case; otherwise "must be one of …" listing every allowed value (§4.13). */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }));

/**
 * GET /api/v1/inspiration and GraphQL `inspirationPhotos` (§4.13). Keys are the GraphQL argument names; the field
 * carries this schema, so the OpenAPI document states these bounds (src/graphql/input-schema.ts).
 */
export const InspirationSearchInput = z.object({
  style: oneOf(INSPIRATION_STYLES).optional(),
  setting: oneOf(INSPIRATION_SETTINGS).optional(),
  color: oneOf(INSPIRATION_COLORS).optional(),
  mood: oneOf(INSPIRATION_MOODS).optional(),
  season: oneOf(INSPIRATION_SEASONS).optional(),
  first: wholeNumberIn(1, 100).default(20),
  // §4.13 says "0 or more"; a million is far past the gallery's end and keeps the SQL offset small.
  offset: wholeNumberIn(0, 1_000_000).optional(),
  after: z.string().max(2000).optional(),
});

export type InspirationSearch = z.output<typeof InspirationSearchInput>;

/** §4.13 search arguments parsed, or a 400 naming each failing one. */
export const parseInspirationSearch = (input: unknown): InspirationSearch => parseInput(InspirationSearchInput, input);

/**
 * A photo id (§4.14): an RFC 9562 UUID of version 1 to 8, RFC variant; the service refuses anything else with
 * invalid_id. Both cases spelt out, no flag: the pattern is published as JSON Schema, which has no flags.
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
export const PhotoId = z.string().regex(UUID_PATTERN).meta({ format: 'uuid' });
