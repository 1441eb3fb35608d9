import { slugify } from '../catalogue/slug.js';
import type { VenueFacet } from './venues.inputs.js';
import { convertStoredAmount } from './venue-pricing.js';
import {
  CAPACITY_BAND_EDGES,
  PRICE_BAND_EDGES,
  type FacetColumns,
  type FacetRow,
  type PriceRanges,
  type ShowRates,
  type VenueFilters,
} from './venues.queries.js';

/** Distinct values, each with its number in first-seen order. */
class Dictionary<T> {
  readonly values: T[] = [];
  private readonly codes = new Map<string, number>();

  code(key: string, value: T): number {
    let code = this.codes.get(key);
    if (code === undefined) this.codes.set(key, (code = this.values.push(value) - 1));
    return code;
  }

  find(key: string): number | undefined {
    return this.codes.get(key);
  }
}

/** The filters a facet owns, by bit: a venue failing only its facet's filter still counts for that facet. */
const OWN: Record<VenueFacet, number> = { venue_type: 1, amenities: 2, state: 4, price_band: 8, capacity_band: 16 };
/** Price bands per currency: below the first edge, between each two, from the last up. */
const PRICE_BANDS = PRICE_BAND_EDGES.length + 1;
/** A venue a filter no facet owns leaves out: two bits or more, so in no facet's count. */
const LEFT_OUT = 0xff;

/** width_bucket's band of a value: how many edges are at or below it. */
function bandOf(value: number, edges: readonly number[]): number {
  let band = 0;
  while (band < edges.length && edges[band] <= value) band++;
  return band;
}

/**
 * The facet counts of a search, counted in memory over the columns the filters test and the facets group, of every
 * published venue, read once per catalogue generation (venue-places.ts); with a place or words, over the venues they
 * match (read in SQL, readPlaceAndWordsMatches). Counted in SQL, a facet whose own filter is set read every venue that
 * filter leaves out of the page, far over the discovery goal on a large catalogue (docs/performance.md, Discovery at
 * scale). The discovery property test holds the counts to its reference. Each filter is one pass over its column, and
 * each facet one pass to count.
 */
export class FacetIndex {
  readonly size: number;
  /** Each venue's position in the columns, by its key (VenueSearchDocument.key). */
  private readonly positions = new Map<number, number>();
  private readonly kinds = new Dictionary<{ venueType: string | null; propertyType: string | null }>();
  private readonly states = new Dictionary<{ slug: string; name: string }>();
  private readonly cities = new Dictionary<string>();
  private readonly currencies = new Dictionary<string>();
  private readonly amenityNames = new Dictionary<string>();
  private readonly kind: Int32Array;
  private readonly state: Int32Array;
  private readonly city: Int32Array;
  private readonly currency: Int32Array;
  /** NaN where the venue has none: NaN compares false, so it meets no bound, as NULL in SQL. */
  private readonly startingTotal: Float64Array;
  private readonly capacity: Float64Array;
  private readonly bedrooms: Float64Array;
  /** The capacity band of each venue, -1 without a capacity. */
  private readonly capacityBand: Int32Array;
  /** Venue i's amenities are amenities[amenityStart[i]] to amenities[amenityStart[i + 1] - 1]. */
  private readonly amenityStart: Int32Array;
  private readonly amenities: Int32Array;
  /** Each venue's price slot (currency × band of the amount shown), for the day's rates it was worked out at. */
  private priceSlots: { rates: string; slots: Int32Array } | undefined;

  constructor(rows: readonly FacetColumns[]) {
    const n = (this.size = rows.length);
    [this.kind, this.state, this.city, this.currency] = [new Int32Array(n), new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    [this.startingTotal, this.capacity, this.bedrooms] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    this.capacityBand = new Int32Array(n);
    this.amenityStart = new Int32Array(n + 1);
    const amenities: number[] = [];
    rows.forEach((r, i) => {
      if (r.key !== null) this.positions.set(Number(r.key), i);
      this.kind[i] = this.kinds.code(`${r.venueType}\u0000${r.propertyType}`, { venueType: r.venueType, propertyType: r.propertyType });
      this.state[i] = this.states.code(`${r.stateSlug}\u0000${r.state}`, { slug: r.stateSlug, name: r.state });
      this.city[i] = this.cities.code(r.citySlug, r.citySlug);
      this.currency[i] = this.currencies.code(r.currency, r.currency);
      this.startingTotal[i] = r.startingTotal ?? NaN;
      this.capacity[i] = r.capacityMax ?? NaN;
      this.capacityBand[i] = r.capacityMax === null ? -1 : bandOf(r.capacityMax, CAPACITY_BAND_EDGES);
      this.bedrooms[i] = r.bedrooms ?? NaN;
      for (const amenity of r.amenities) amenities.push(this.amenityNames.code(amenity, amenity));
      this.amenityStart[i + 1] = amenities.length;
    });
    this.amenities = Int32Array.from(amenities);
  }

  /**
   * The counts of `names` under `filters` and the band's stored ranges `prices`, each facet leaving out its own
   * filter, and the search's own count (`total`: the venues failing no filter). `propertyTypes`: those the venue_type
   * filter matches (null without one); `showRates`: per currency shown converted, the day's rate and rounding step.
   * `within`: the keys of the venues a place or words match, when the search has them (a key the columns do not
   * hold, a venue published since they were read, is not counted, as a venue the filters would test is not).
   */
  count(
    { filters, prices }: { filters: VenueFilters; prices: PriceRanges | null },
    names: readonly VenueFacet[],
    showRates: ShowRates,
    propertyTypes: ReadonlySet<string> | null,
    within?: readonly number[],
  ): { rows: FacetRow[]; total: number } {
    const tested = within ? this.positionsOf(within) : null;
    const failed = this.failedFilters(tested, filters, prices, propertyTypes);
    const asked = new Set(names);
    const rows: FacetRow[] = [];
    const add = (facet: VenueFacet, venues: number, value: string | null, label: string | null) => {
      // A venue type may be unset (null), as the SQL groups it: its property type still counts for the types it names.
      if (venues > 0) rows.push({ facet, value: value as string, label, venues });
    };
    if (asked.has('venue_type')) {
      const kinds = countCodes(tested, failed, OWN.venue_type, this.kind, this.kinds.values.length);
      this.kinds.values.forEach((k, code) => add('venue_type', kinds[code], k.venueType, k.propertyType));
    }
    if (asked.has('state')) {
      const states = countCodes(tested, failed, OWN.state, this.state, this.states.values.length);
      this.states.values.forEach((s, code) => add('state', states[code], s.slug, s.name));
    }
    if (asked.has('amenities')) {
      const amenities = countAmenities(tested, failed, this.amenityStart, this.amenities, this.amenityNames.values.length);
      this.amenityNames.values.forEach((name, code) => add('amenities', amenities[code], name, null));
    }
    if (asked.has('price_band')) {
      const bands = countCodes(tested, failed, OWN.price_band, this.slotsAt(showRates), this.currencies.values.length * PRICE_BANDS);
      bands.forEach((venues, slot) => add('price_band', venues, String(slot % PRICE_BANDS), this.currencies.values[Math.floor(slot / PRICE_BANDS)]));
    }
    if (asked.has('capacity_band')) {
      const bands = countCodes(tested, failed, OWN.capacity_band, this.capacityBand, CAPACITY_BAND_EDGES.length + 1);
      bands.forEach((venues, band) => add('capacity_band', venues, String(band), null));
    }
    let total = 0;
    for (let k = 0, n = tested ? tested.length : failed.length; k < n; k++) {
      const i = tested ? tested[k] : k;
      if (failed[i] === 0) total++;
    }
    return { rows, total };
  }

  /** The positions of the venues `keys` name (a key the columns do not hold is left out). */
  private positionsOf(keys: readonly number[]): Int32Array {
    const positions = new Int32Array(keys.length);
    let n = 0;
    for (const key of keys) {
      const position = this.positions.get(key);
      if (position !== undefined) positions[n++] = position;
    }
    return positions.subarray(0, n);
  }

  /**
   * Per venue tested, the OWN bits of the facet filters it fails, or LEFT_OUT when a filter no facet owns (city,
   * bedrooms) leaves it out. `venues`: the positions of those a place or words match, the only ones tested and counted
   * (the others are never read), or null for every venue: a place's few thousand venues cost no pass over the whole
   * catalogue. A value is matched once per distinct value (`outside`: per code, whether it fails), not per venue.
   */
  private failedFilters(
    venues: Int32Array | null,
    filters: VenueFilters,
    prices: PriceRanges | null,
    propertyTypes: ReadonlySet<string> | null,
  ): Uint8Array {
    const failed = new Uint8Array(this.size);
    const { city, bedroomsMin, capacityMin, capacityMax, amenities } = filters;
    const outside = <T>(values: readonly T[], passes: (value: T) => boolean) => Uint8Array.from(values, (value) => (passes(value) ? 0 : 1));
    if (city !== undefined) {
      const slug = slugify(city);
      failCodes(
        venues,
        failed,
        this.city,
        outside(this.cities.values, (c) => c === slug),
        LEFT_OUT,
      );
    }
    if (bedroomsMin !== undefined) failRange(venues, failed, this.bedrooms, bedroomsMin, Infinity, LEFT_OUT);
    if (propertyTypes) {
      failCodes(
        venues,
        failed,
        this.kind,
        outside(this.kinds.values, (k) => k.propertyType !== null && propertyTypes.has(k.propertyType)),
        OWN.venue_type,
      );
    }
    if (amenities?.length) {
      const wanted = Int32Array.from(new Set(amenities), (a) => this.amenityNames.find(a) ?? -1);
      failAmenities(venues, failed, this.amenityStart, this.amenities, wanted, OWN.amenities);
    }
    if (filters.state !== undefined) {
      const slug = slugify(filters.state);
      failCodes(
        venues,
        failed,
        this.state,
        outside(this.states.values, (s) => s.slug === slug),
        OWN.state,
      );
    }
    if (prices) {
      // Per currency, the stored range its amounts must be in, as priceFilter writes it; a converted currency without
      // a rate today has none (an empty range).
      const [gte, lte] = [new Float64Array(this.currencies.values.length), new Float64Array(this.currencies.values.length)];
      this.currencies.values.forEach((currency, code) => {
        const converted = prices.converted.find((c) => c.currency === currency);
        const range = converted ? converted.range : prices.own;
        [gte[code], lte[code]] = range ? [range.gte ?? -Infinity, range.lte ?? Infinity] : [Infinity, -Infinity];
      });
      for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
        const i = venues ? venues[k] : k;
        const [code, amount] = [this.currency[i], this.startingTotal[i]];
        if (!(amount >= gte[code] && amount <= lte[code])) failed[i] |= OWN.price_band;
      }
    }
    if (capacityMin !== undefined || capacityMax !== undefined) {
      failRange(venues, failed, this.capacity, capacityMin ?? -Infinity, capacityMax ?? Infinity, OWN.capacity_band);
    }
    return failed;
  }

  /** Each venue's price slot at `showRates`: its currency × the band of its amount shown, or -1 (no amount shown). */
  private slotsAt(showRates: ShowRates): Int32Array {
    const rates = JSON.stringify(showRates);
    if (this.priceSlots?.rates === rates) return this.priceSlots.slots;
    const slots = new Int32Array(this.size).fill(-1);
    for (let i = 0; i < this.size; i++) {
      const [amount, currency] = [this.startingTotal[i], this.currencies.values[this.currency[i]]];
      const conversion = showRates[currency];
      if (Number.isNaN(amount) || conversion?.rate === null) continue;
      const shown = conversion ? convertStoredAmount(amount, conversion.rate, conversion.roundUpTo) : amount;
      slots[i] = this.currency[i] * PRICE_BANDS + bandOf(shown, PRICE_BAND_EDGES);
    }
    this.priceSlots = { rates, slots };
    return slots;
  }
}

/**
 * Per code (0 to size - 1) of `column`, the venues of `venues` (null: every venue) counted for the facet whose filter
 * is `bit`: those failing no facet filter or that one alone (a code of -1: none to count). One loop per facet.
 */
function countCodes(venues: Int32Array | null, failed: Uint8Array, bit: number, column: Int32Array, size: number): Int32Array {
  const counts = new Int32Array(size);
  for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
    const i = venues ? venues[k] : k;
    if ((failed[i] === 0 || failed[i] === bit) && column[i] >= 0) counts[column[i]]++;
  }
  return counts;
}

/** Per amenity code, the venues of `venues` listing it counted for the amenity facet. */
function countAmenities(venues: Int32Array | null, failed: Uint8Array, start: Int32Array, listed: Int32Array, size: number): Int32Array {
  const counts = new Int32Array(size);
  for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
    const i = venues ? venues[k] : k;
    if (failed[i] === 0 || failed[i] === OWN.amenities) for (let a = start[i]; a < start[i + 1]; a++) counts[listed[a]]++;
  }
  return counts;
}

/** Marks `bit` on each venue of `venues` whose code in `column` is `outside` (1). */
function failCodes(venues: Int32Array | null, failed: Uint8Array, column: Int32Array, outside: Uint8Array, bit: number) {
  for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
    const i = venues ? venues[k] : k;
    if (outside[column[i]]) failed[i] |= bit;
  }
}

/** Marks `bit` on each venue of `venues` whose value is not from `gte` to `lte` (NaN, no value, never is). */
function failRange(venues: Int32Array | null, failed: Uint8Array, column: Float64Array, gte: number, lte: number, bit: number) {
  for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
    const i = venues ? venues[k] : k;
    if (!(column[i] >= gte && column[i] <= lte)) failed[i] |= bit;
  }
}

/** Marks `bit` on each venue of `venues` not listing every amenity code `wanted` (-1, an amenity none lists). */
function failAmenities(venues: Int32Array | null, failed: Uint8Array, start: Int32Array, listed: Int32Array, wanted: Int32Array, bit: number) {
  for (let k = 0, n = venues ? venues.length : failed.length; k < n; k++) {
    const i = venues ? venues[k] : k;
    for (let w = 0; w < wanted.length; w++) {
      let a = start[i];
      while (a < start[i + 1] && listed[a] !== wanted[w]) a++;
      if (a === start[i + 1]) {
        failed[i] |= bit;
        break;
      }
    }
  }
}
