import type { RowReader } from '../db/row-reader.js';
import { slugify } from '../catalogue/slug.js';
import type { DayRate } from '../venues/venue-pricing.js';
import { parseCostBenchmarks, type CostBenchmarksQuery } from './pricing.inputs.js';
import { readPricedListings, type ListingRow } from './pricing.queries.js';

// §2.5 / §4.4 cost benchmarks, computed from the live, published listings on every request (no stored answers):
// one SELECT of the priced published venues, percentiles in JS. docs/pricing.md explains the figures.

export interface BenchmarkDeps {
  /** The driver's reader (Database.readRows). */
  readRows: RowReader;
  /** The day's EUR→USD rate (newest rate dated on or before today by the request clock). */
  eurToUsd: () => Promise<DayRate | null>;
  now: () => Date;
  /** Where the public pages live (PUBLIC_SITE_URL, else the service's origin): sourceUrl names its /venues page. */
  siteUrl: string;
}

/** §8.9: a figure exists only where at least this many live listings back it. */
export const MIN_LISTINGS = 3;
/** §2.5 venue_type rows without a filter. */
export const BENCHMARK_VENUE_TYPES = ['estate', 'villa', 'ranch', 'mansion'] as const;
const NATIONAL_COUNTRY = 'United States';

export interface BenchmarkRow {
  scope: 'national' | 'state' | 'venue_type' | 'country';
  country: string | null;
  state: string | null;
  venueType: string | null;
  medianBasePerStay: number;
  typicalLowBasePerStay: number;
  typicalHighBasePerStay: number;
  convertedFrom: 'EUR' | null;
  /** §9: deprecated aliases of the *BasePerStay fields, same values (never nightly rates). */
  medianNightly: number;
  typicalLowNightly: number;
  typicalHighNightly: number;
  listings: number;
}

export interface CostBenchmarks {
  data: BenchmarkRow[];
  currency: 'USD';
  fx: { eurToUsd: number; rateDate: string } | null;
  asOf: string | null;
  sourceUrl: string;
  note: string;
}

/** One live listing's benchmark base: weekday base for the whole minimum stay, in USD. */
export interface Listing {
  usd: number;
  converted: boolean;
  country: string;
  state: string;
  stateSlug: string;
  venueType: string | null;
}

/**
 * The p-quantile (0 ≤ p ≤ 1) of ascending values with linear interpolation between closest ranks — the definition of
 * PostgreSQL percentile_cont and Excel PERCENTILE.INC: h = (n − 1)·p, x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function row(keys: Pick<BenchmarkRow, 'scope' | 'country' | 'state' | 'venueType'>, listings: Listing[]): BenchmarkRow | null {
  if (listings.length < MIN_LISTINGS) return null;
  const sorted = listings.map((l) => l.usd).sort((a, b) => a - b);
  // Whole dollars: the inputs are whole-dollar bases (or converted euros), cents would be false precision.
  const [low, median, high] = [0.25, 0.5, 0.75].map((p) => Math.round(percentile(sorted, p)));
  return {
    ...keys,
    medianBasePerStay: median,
    typicalLowBasePerStay: low,
    typicalHighBasePerStay: high,
    convertedFrom: listings.some((l) => l.converted) ? 'EUR' : null,
    medianNightly: median,
    typicalLowNightly: low,
    typicalHighNightly: high,
    listings: listings.length,
  };
}

export type { ListingRow };

/** Published venues with a weekday base, in USD: USD as is; AUD venues store USD (§2.1), used unconverted; EUR at the day's rate. */
async function liveListings(deps: BenchmarkDeps, fx: DayRate | null): Promise<Listing[]> {
  return listingsOf(await readPricedListings(deps.readRows), fx);
}

/** Pure: the rows as listings in USD (exported for the bench's hand-written baseline, which reads them with its own SQL). */
export function listingsOf(venues: ListingRow[], fx: DayRate | null): Listing[] {
  const out: Listing[] = [];
  for (const v of venues) {
    if (v.currency === 'EUR' && !fx) continue; // no rate on file: a euro listing cannot be stated in USD
    const converted = v.currency === 'EUR';
    out.push({
      usd: converted ? v.weekdayBase! * fx!.rate : v.weekdayBase!,
      converted,
      country: v.country ?? NATIONAL_COUNTRY,
      state: v.state,
      stateSlug: v.stateSlug,
      venueType: v.venueType,
    });
  }
  return out;
}

/** A state filter as the spec allows it: the name (any case) or its slug. */
const sameState = (l: Listing, asked: string) => l.stateSlug === slugify(asked);
const sameCountry = (l: Listing, asked: string) =>
  slugify(l.country) === slugify(asked) || (l.country === NATIONAL_COUNTRY && ['us', 'usa'].includes(slugify(asked)));
const sameType = (l: Listing, asked: string) => l.venueType === asked.trim().toLowerCase();

/**
 * Without filters: the national (US) row, one row per US state, per named venue type (every country, country null) and per
 * destination country. Filters narrow the listings to one row keyed by every filter given; rows under 3 listings are left out.
 */
function rowsFor(q: CostBenchmarksQuery, listings: Listing[]): BenchmarkRow[] {
  const us = listings.filter((l) => l.country === NATIONAL_COUNTRY);
  if (q.state === undefined && q.venueType === undefined && q.country === undefined) {
    const byKey = <K extends string>(items: Listing[], key: (l: Listing) => K | null) => {
      const groups = new Map<K, Listing[]>();
      for (const l of items) {
        const k = key(l);
        if (k === null) continue;
        const group = groups.get(k);
        if (group) group.push(l);
        else groups.set(k, [l]);
      }
      return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
    };
    return [
      row({ scope: 'national', country: NATIONAL_COUNTRY, state: null, venueType: null }, us),
      ...byKey(us, (l) => l.state).map(([state, ls]) => row({ scope: 'state', country: NATIONAL_COUNTRY, state, venueType: null }, ls)),
      ...BENCHMARK_VENUE_TYPES.map((t) =>
        row(
          { scope: 'venue_type', country: null, state: null, venueType: t },
          listings.filter((l) => l.venueType === t),
        ),
      ),
      ...byKey(
        listings.filter((l) => l.country !== NATIONAL_COUNTRY),
        (l) => l.country,
      ).map(([country, ls]) => row({ scope: 'country', country, state: null, venueType: null }, ls)),
    ].filter((r): r is BenchmarkRow => r !== null);
  }
  // A venue type alone spans every country (villas are mostly abroad); a state is always a US state.
  let chosen = q.country !== undefined ? listings.filter((l) => sameCountry(l, q.country!)) : q.state !== undefined ? us : listings;
  if (q.state !== undefined) chosen = chosen.filter((l) => sameState(l, q.state!));
  if (q.venueType !== undefined) chosen = chosen.filter((l) => sameType(l, q.venueType!));
  const first = chosen[0];
  const scope =
    q.state !== undefined ? 'state' : q.country !== undefined ? (first?.country === NATIONAL_COUNTRY ? 'national' : 'country') : 'venue_type';
  const keyed = row(
    {
      scope,
      country: scope === 'venue_type' ? null : (first?.country ?? null),
      state: q.state !== undefined ? (first?.state ?? null) : null,
      venueType: q.venueType !== undefined ? (first?.venueType ?? null) : null,
    },
    chosen,
  );
  return keyed ? [keyed] : [];
}

/** GET /api/v1/cost-benchmarks, GraphQL costBenchmarks (§4.4, §2.5). */
export async function costBenchmarks(rawInput: unknown, deps: BenchmarkDeps): Promise<CostBenchmarks> {
  const q = parseCostBenchmarks(rawInput);
  const fx = await deps.eurToUsd();
  return benchmarksOf(q, await liveListings(deps, fx), fx, deps.now(), deps.siteUrl);
}

/** How the figures are made, as every answer's `note` and the /venues page (its source_url) state it. */
export const BENCHMARK_NOTE =
  'Computed at request time from live, published listings: the weekday base price for exclusive use over the whole ' +
  'minimum stay (before cleaning, service fee and tax), in USD. Euro listings are converted at fx.eur_to_usd; ' +
  'Australian listings use their stored USD amounts. Percentiles are linearly interpolated (as PostgreSQL ' +
  `percentile_cont). A row appears only where at least ${MIN_LISTINGS} listings back it. Not nightly rates.`;

/** Pure: the answer from the listings (exported for the bench's hand-written baseline). `siteUrl`: as BenchmarkDeps. */
export function benchmarksOf(q: CostBenchmarksQuery, listings: Listing[], fx: DayRate | null, now: Date, siteUrl: string): CostBenchmarks {
  return {
    data: rowsFor(q, listings),
    currency: 'USD',
    fx: fx ? { eurToUsd: fx.rate, rateDate: fx.rateDate } : null,
    asOf: now.toISOString().slice(0, 10),
    sourceUrl: `${siteUrl}/venues`,
    note: BENCHMARK_NOTE,
  };
}
