import { slugify } from '../catalogue/slug.js';
import {
  CLIMATES,
  GUEST_SCALING,
  NATIONAL_FALLBACK,
  REGIONAL_DATA,
  type Month,
  type Multipliers,
  type PopularSeasons,
  type RegionRecord,
} from './data/regional-climates.js';
import { US_STATES } from './data/regional-us-states.js';
import { US_CITIES } from './data/regional-us-cities.js';
import { DESTINATIONS } from './data/regional-destinations.js';
import { MONTH_NAMES, SEASON_MONTHS, parseRegionalRange, type SeasonAsked } from './pricing.inputs.js';
import { usdText } from '../catalogue/money.js';

// §2.6 / §4.5 regional whole-wedding budget ranges, from the authored data under ./data. A lookup never substitutes
// a neighbouring region: no match is covered: false with the list of covered regions.

export interface RegionalRangeDeps {
  /** Where the public pages live (PUBLIC_SITE_URL, else the service's origin): sourceUrl names one. */
  siteUrl: string;
}

export type Period = 'peak' | 'shoulder' | 'offSeason';
export type Coverage = 'calculator' | 'parent_state' | 'insights_only';
export type MatchedOn = 'slug' | 'city' | 'state' | 'country' | 'alias';

export interface SeasonResult {
  asked: string;
  /** Each month of the season and its period in the region's lists ('unclassified' when in none). */
  months: { month: Month; period: Period | 'unclassified' }[];
  period: Period;
  multiplier: number;
  unclassified: boolean;
}

export interface ScaledRange {
  low: number;
  high: number;
  guestCount: number | null;
  guestMultiplier: number;
  seasonMultiplier: number;
  clamped: boolean;
}

export interface RegionalCostRange {
  slug: string;
  name: string;
  type: 'state' | 'city';
  coverage: Coverage;
  matchedOn: MatchedOn;
  multipliersFrom: string | null;
  range: { low: number; high: number; display: string; note: string };
  averageGuestCount: number;
  seasonalMultipliers: Multipliers['seasonal'];
  dayOfWeekMultipliers: Multipliers['dayOfWeek'];
  popularSeasons: PopularSeasons;
  season: SeasonResult | null;
  scaled: ScaledRange | null;
  source: string;
  dataYear: number;
}

export interface RegionalRangeResult {
  data: RegionalCostRange | null;
  covered: boolean;
  reason: string | null;
  asked: string | null;
  coveredRegions: string[] | null;
  asOf: number;
  note: string;
  sourceUrl: string;
}

export const REGIONS: readonly RegionRecord[] = [...US_STATES, ...US_CITIES, ...DESTINATIONS];
const BY_SLUG = new Map(REGIONS.map((r) => [r.slug, r]));
const isCountry = (r: RegionRecord) => r.type === 'state' && r.country === r.name;

/** Folded lookup keys → region, per way of asking (a key is the slug form of a name, code or alias). */
function index(pairs: Array<[string, RegionRecord]>): Map<string, RegionRecord> {
  return new Map(pairs.map(([text, r]) => [slugify(text), r]));
}
const CITY_KEYS = index(
  REGIONS.filter((r) => r.type === 'city').flatMap(
    (r) =>
      [
        [r.name, r],
        [r.slug, r],
      ] as Array<[string, RegionRecord]>,
  ),
);
const STATE_KEYS = index(
  REGIONS.filter((r) => r.type === 'state' && !isCountry(r)).flatMap(
    (r) => [[r.name, r], [r.slug, r], ...(r.usps ? [[r.usps, r]] : [])] as Array<[string, RegionRecord]>,
  ),
);
const COUNTRY_KEYS = index(
  REGIONS.filter(isCountry).flatMap(
    (r) =>
      [
        [r.name, r],
        [r.slug, r],
      ] as Array<[string, RegionRecord]>,
  ),
);
const ALIAS_KEYS = index(REGIONS.flatMap((r) => (r.aliases ?? []).map((a) => [a, r] as [string, RegionRecord])));

/** The most specific identifier given decides (slug, then city, then state); it is never replaced by another. */
function lookup(q: { slug?: string; city?: string; state?: string }): { asked: string; region: RegionRecord | null; matchedOn: MatchedOn } {
  if (q.slug !== undefined) return { asked: q.slug, region: BY_SLUG.get(q.slug.trim().toLowerCase()) ?? null, matchedOn: 'slug' };
  const key = slugify((q.city ?? q.state)!);
  if (q.city !== undefined) {
    const byCity = CITY_KEYS.get(key);
    if (byCity) return { asked: q.city, region: byCity, matchedOn: 'city' };
    return { asked: q.city, region: ALIAS_KEYS.get(key) ?? null, matchedOn: 'alias' };
  }
  const asked = q.state!;
  for (const [keys, matchedOn] of [
    [STATE_KEYS, 'state'],
    [COUNTRY_KEYS, 'country'],
    [ALIAS_KEYS, 'alias'],
  ] as const) {
    const region = keys.get(key);
    if (region) return { asked, region, matchedOn };
  }
  return { asked, region: null, matchedOn: 'state' };
}

/** calculator: own multipliers; parent_state: a city using its parent's; insights_only: the national fallback. */
export function multipliersOf(r: RegionRecord): { coverage: Coverage; multipliers: Multipliers; from: string | null } {
  if (r.multipliers) return { coverage: 'calculator', multipliers: r.multipliers, from: null };
  const parent = r.parent ? BY_SLUG.get(r.parent) : undefined;
  if (r.type === 'city' && parent?.multipliers) return { coverage: 'parent_state', multipliers: parent.multipliers, from: parent.slug };
  return { coverage: 'insights_only', multipliers: NATIONAL_FALLBACK, from: null };
}

const PERIODS: Period[] = ['peak', 'shoulder', 'offSeason'];

/**
 * §2.6 season: each month's period from the region's popular-season lists; the season's period is the one most of
 * its classified months have (a tie goes to the higher multiplier, the safer budget); no classified month → shoulder,
 * unclassified. Season words name northern months; southern-hemisphere regions use the months six apart.
 */
export function resolveSeason(s: SeasonAsked, popular: PopularSeasons, multipliers: Multipliers, southern: boolean): SeasonResult {
  const numbers = 'month' in s ? [s.month] : SEASON_MONTHS[s.season].map((m) => (southern ? ((m + 5) % 12) + 1 : m));
  const months = numbers.map((n) => {
    const month = MONTH_NAMES[n - 1];
    const period: Period | 'unclassified' = PERIODS.find((p) => popular[p].includes(month)) ?? 'unclassified';
    return { month, period };
  });
  const counts = PERIODS.map((p) => ({ p, n: months.filter((m) => m.period === p).length, x: multipliers.seasonal[p] })).filter((c) => c.n > 0);
  counts.sort((a, b) => b.n - a.n || b.x - a.x);
  const period = counts[0]?.p ?? 'shoulder';
  return { asked: s.asked, months, period, multiplier: multipliers.seasonal[period], unclassified: counts.length === 0 };
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;
const roundTo = (n: number, step: number) => Math.round(n / step + 1e-9) * step;

/** §4.5 guests: guestMultiplier = clamp(fixedShare + (1 − fixedShare) × guests / averageGuestCount, min, max). */
export function scaleRange(
  r: { low: number; high: number; averageGuestCount: number },
  guests: number | undefined,
  seasonMultiplier: number,
): ScaledRange {
  const raw = guests === undefined ? 1 : GUEST_SCALING.fixedShare + (1 - GUEST_SCALING.fixedShare) * (guests / r.averageGuestCount);
  const guestMultiplier = round4(Math.min(GUEST_SCALING.max, Math.max(GUEST_SCALING.min, raw)));
  const factor = guestMultiplier * seasonMultiplier;
  return {
    low: roundTo(r.low * factor, GUEST_SCALING.roundTo),
    high: roundTo(r.high * factor, GUEST_SCALING.roundTo),
    guestCount: guests ?? null,
    guestMultiplier,
    seasonMultiplier,
    clamped: raw < GUEST_SCALING.min || raw > GUEST_SCALING.max,
  };
}

/** What the figures are and how they scale, as every answer's `note` and the /wedding-costs page state it. */
export const REGIONAL_NOTE =
  `Authored regional whole-wedding budgets (data ${REGIONAL_DATA.version}, USD, all in: venue, catering, attire, photography, ` +
  'flowers, music). Not venue prices. Scaled figures apply the season multiplier and a guest multiplier ' +
  `(${GUEST_SCALING.fixedShare} fixed share + ${1 - GUEST_SCALING.fixedShare} × guests / average guest count, clamped to ` +
  `${GUEST_SCALING.min}–${GUEST_SCALING.max}): estimates, never quotes.`;

/** GET /api/v1/regional-cost-ranges, GraphQL regionalCostRange (§4.5, §2.6). */
export function regionalCostRange(rawInput: unknown, deps: RegionalRangeDeps): RegionalRangeResult {
  const q = parseRegionalRange(rawInput);
  const { asked, region, matchedOn } = lookup(q);
  if (!region) {
    return {
      data: null,
      covered: false,
      reason: `No regional cost data for '${asked}'. No neighbouring region is substituted; use one of covered_regions.`,
      asked,
      coveredRegions: REGIONS.map((r) => r.slug).sort(),
      asOf: REGIONAL_DATA.dataYear,
      note: REGIONAL_NOTE,
      sourceUrl: `${deps.siteUrl}/wedding-costs`,
    };
  }
  const { coverage, multipliers, from } = multipliersOf(region);
  const popularSeasons: PopularSeasons = CLIMATES[region.climate];
  const season = q.season ? resolveSeason(q.season, popularSeasons, multipliers, region.southern === true) : null;
  const scaled = q.guests !== undefined || season ? scaleRange(region, q.guests, season?.multiplier ?? 1) : null;
  return {
    data: {
      slug: region.slug,
      name: region.name,
      type: region.type,
      coverage,
      matchedOn,
      multipliersFrom: from,
      range: {
        low: region.low,
        high: region.high,
        display: `${usdText(region.low)}–${usdText(region.high)}`,
        note: `Whole wedding budget for about ${region.averageGuestCount} guests, all in; not a venue price.`,
      },
      averageGuestCount: region.averageGuestCount,
      seasonalMultipliers: multipliers.seasonal,
      dayOfWeekMultipliers: multipliers.dayOfWeek,
      popularSeasons,
      season,
      scaled,
      source: region.source ?? REGIONAL_DATA.source,
      dataYear: region.dataYear,
    },
    covered: true,
    reason: null,
    asked,
    coveredRegions: null,
    asOf: region.dataYear,
    note: REGIONAL_NOTE,
    sourceUrl: `${deps.siteUrl}/wedding-costs/${region.slug}`,
  };
}
