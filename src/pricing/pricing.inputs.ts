import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { nonEmptyText, wholeNumberIn, type InputRelation } from '../errors/validation.js';
import { slugify } from '../catalogue/slug.js';
import { ESTIMATOR_MODEL, type EstimatorRegion } from './data/estimator-model.js';

// Inputs of the three cost endpoints (§4.3–4.5). Keys are the GraphQL argument names; the REST adapter renames
// them to the REST parameters in errors. Each field of the estimator has its own error code (§7), so a failing
// field is reported with that code instead of the generic invalid_parameters.

const { defaults, bounds } = ESTIMATOR_MODEL;

export const ESTIMATOR_REGION_IDS = ESTIMATOR_MODEL.regions.map((r) => r.id);
export const ESTIMATOR_VENUE_TYPES = Object.keys(ESTIMATOR_MODEL.venueTypeFactors) as (keyof typeof ESTIMATOR_MODEL.venueTypeFactors)[];
export const ESTIMATOR_SEASONS = Object.keys(ESTIMATOR_MODEL.seasonFactors) as (keyof typeof ESTIMATOR_MODEL.seasonFactors)[];
export const ESTIMATOR_EVENT_TYPES = Object.keys(ESTIMATOR_MODEL.eventTypeFactors) as (keyof typeof ESTIMATOR_MODEL.eventTypeFactors)[];

/** Every accepted spelling of a region (id, name, short form), folded like a slug: "New York", "NY", "lake como". */
const REGION_BY_KEY = new Map<string, EstimatorRegion>(
  ESTIMATOR_MODEL.regions.flatMap((r) => [r.id, r.name, ...r.short].map((text) => [slugify(text), r] as const)),
);

/** §4.3 region: the id, the name or a short form, case-insensitively; null when none matches. */
export function findEstimatorRegion(text: string): EstimatorRegion | null {
  return REGION_BY_KEY.get(slugify(text)) ?? null;
}

const oneOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(values as [T, ...T[]], { error: `must be one of ${values.join(', ')}` }));
const whole = ([min, max]: readonly [number, number]) => wholeNumberIn(min, max);

/**
 * GET /api/v1/venues/pricing and GraphQL `pricingEstimate` (§4.3); defaults from the model file. The field carries
 * this schema, so the OpenAPI document states these bounds (src/graphql/input-schema.ts).
 */
export const PricingEstimateInput = z.object({
  // Names and short forms in any case are taken too; clients are told the ids, each a region of its own.
  region: z
    .string()
    .meta({ enum: ESTIMATOR_REGION_IDS })
    .transform((text, ctx) => {
      const region = findEstimatorRegion(text);
      if (!region) ctx.addIssue({ code: 'custom', message: 'unknown region' });
      return region ?? z.NEVER;
    })
    .default(() => findEstimatorRegion(defaults.region)!),
  eventType: oneOf(ESTIMATOR_EVENT_TYPES).default(defaults.eventType),
  eventGuests: whole(bounds.eventGuests).default(defaults.eventGuests),
  overnightGuests: whole(bounds.overnightGuests).default(defaults.overnightGuests),
  nights: whole(bounds.nights).default(defaults.nights),
  venueType: oneOf(ESTIMATOR_VENUE_TYPES).default(defaults.venueType),
  season: oneOf(ESTIMATOR_SEASONS).default(defaults.season),
});
export type PricingEstimate = z.output<typeof PricingEstimateInput>;

const ESTIMATE_CODES: Record<keyof PricingEstimate, ErrorCode> = {
  region: 'invalid_region',
  eventType: 'invalid_event_type',
  eventGuests: 'invalid_event_guests',
  overnightGuests: 'invalid_overnight_guests',
  nights: 'invalid_nights',
  venueType: 'invalid_venue_type',
  season: 'invalid_season',
};

const ESTIMATE_MESSAGES: Record<keyof PricingEstimate, string> = {
  region: `region must be a region id, name or short form. Valid ids: ${ESTIMATOR_REGION_IDS.join(', ')}.`,
  eventType: `eventType must be one of ${ESTIMATOR_EVENT_TYPES.join(', ')}.`,
  eventGuests: `eventGuests must be an integer from ${bounds.eventGuests[0]} to ${bounds.eventGuests[1]}.`,
  overnightGuests: `overnightGuests must be an integer from ${bounds.overnightGuests[0]} to ${bounds.overnightGuests[1]}.`,
  nights: `nights must be an integer from ${bounds.nights[0]} to ${bounds.nights[1]}.`,
  venueType: `venueType must be one of ${ESTIMATOR_VENUE_TYPES.join(', ')}.`,
  season: `season must be one of ${ESTIMATOR_SEASONS.join(', ')}.`,
};

/**
 * Absent and null arguments are the same thing on both surfaces: the default applies. A loop, not
 * fromEntries(entries().filter()), which made an array per argument and took ~1.5 % of the regional range's CPU profile.
 */
function withoutNulls(input: unknown): Record<string, unknown> {
  const given = (input ?? {}) as Record<string, unknown>;
  const present: Record<string, unknown> = {};
  for (const name of Object.keys(given)) if (given[name] !== null && given[name] !== undefined) present[name] = given[name];
  return present;
}

/** Parses §4.3 input; the first failing field throws its own code with `param` set (messages name the GraphQL argument). */
export function parsePricingEstimate(input: unknown): PricingEstimate {
  const result = PricingEstimateInput.safeParse(withoutNulls(input));
  if (result.success) return result.data;
  const field = String(result.error.issues[0].path[0]) as keyof PricingEstimate;
  throw new ApiError(ESTIMATE_CODES[field], { param: field, message: ESTIMATE_MESSAGES[field] });
}

/** GET /api/v1/cost-benchmarks and GraphQL `costBenchmarks` (§4.4): optional filters, each message stating its bound. */
export const CostBenchmarksInput = z.object({
  state: nonEmptyText(100).optional(),
  venueType: nonEmptyText(50).optional(),
  country: nonEmptyText(100).optional(),
});
export type CostBenchmarksQuery = z.output<typeof CostBenchmarksInput>;

export const parseCostBenchmarks = (input: unknown) => {
  const result = CostBenchmarksInput.safeParse(withoutNulls(input));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ApiError('invalid_parameters', {
    problems: [{ param: String(issue.path[0]), problem: issue.message }],
  });
};

/** Season words of §4.5 and the northern-hemisphere months they mean (southern regions shift them by six months). */
export const SEASON_MONTHS = { spring: [3, 4, 5], summer: [6, 7, 8], fall: [9, 10, 11], autumn: [9, 10, 11], winter: [12, 1, 2] } as const;
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A parsed §4.5 season: a season word (months depend on the region's hemisphere) or one month (1–12). */
export type SeasonAsked = { asked: string; season: keyof typeof SEASON_MONTHS } | { asked: string; month: number };

const MONTH_NUMBER = /^(0?[1-9]|1[0-2])$/;

/**
 * The seasons parseSeason takes, as a JSON Schema pattern (lowercase; parseSeason also takes any case and surrounding
 * spaces): its words, month names and their 3-letter forms, and the month numbers.
 */
export const SEASON_PATTERN = `^(?:${[
  ...new Set([...Object.keys(SEASON_MONTHS), ...MONTH_NAMES.flatMap((m) => [m.toLowerCase(), m.slice(0, 3).toLowerCase()])]),
].join('|')}|${MONTH_NUMBER.source.slice(1, -1)})$`;

/** spring/summer/fall/autumn/winter, a month name (or its 3-letter form), or 1–12 / 01–12; null otherwise. */
export function parseSeason(raw: string): SeasonAsked | null {
  const asked = raw.trim().toLowerCase();
  if (Object.hasOwn(SEASON_MONTHS, asked)) return { asked, season: asked as keyof typeof SEASON_MONTHS };
  if (MONTH_NUMBER.test(asked)) return { asked, month: Number(asked) };
  const index = MONTH_NAMES.findIndex((m) => m.toLowerCase() === asked || (asked.length === 3 && m.toLowerCase().startsWith(asked)));
  return index >= 0 ? { asked, month: index + 1 } : null;
}

export const RANGE_GUESTS = [1, 2000] as const;

/** §4.5: at least one of these names the region (region_required otherwise). */
const REGION_KEYS = ['slug', 'state', 'city'] as const;
const NAMES_A_REGION: InputRelation = { kind: 'or', keys: REGION_KEYS };

/**
 * GET /api/v1/regional-cost-ranges and GraphQL `regionalCostRange` (§4.5). The field carries this schema, so the
 * OpenAPI document states these bounds (src/graphql/input-schema.ts).
 */
export const RegionalRangeInput = z
  .object({
    slug: nonEmptyText(100).optional(),
    state: nonEmptyText(100).optional(),
    city: nonEmptyText(100).optional(),
    season: z
      .string()
      .meta({ pattern: SEASON_PATTERN })
      .transform((s, ctx) => {
        const season = parseSeason(s);
        if (!season) ctx.addIssue({ code: 'custom', message: 'unparseable season' });
        return season ?? z.NEVER;
      })
      .optional(),
    guests: wholeNumberIn(...RANGE_GUESTS).optional(),
  })
  .meta({ relations: [NAMES_A_REGION] });
export type RegionalRangeQuery = z.output<typeof RegionalRangeInput>;

/** Parses §4.5 input: a bad season is invalid_season_name, bad guests invalid_guests, no region region_required. */
export function parseRegionalRange(input: unknown): RegionalRangeQuery {
  const result = RegionalRangeInput.safeParse(withoutNulls(input));
  if (!result.success) {
    const issue = result.error.issues[0];
    const param = String(issue.path[0]);
    if (param === 'season') throw new ApiError('invalid_season_name', { param });
    if (param === 'guests') throw new ApiError('invalid_guests', { param });
    throw new ApiError('invalid_parameters', {
      problems: [{ param, problem: issue.message }],
    });
  }
  const query = result.data;
  if (REGION_KEYS.every((key) => query[key] === undefined)) throw new ApiError('region_required', { param: 'state' });
  return query;
}
