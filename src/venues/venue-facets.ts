import type { VenueFacet } from './venues.inputs.js';
import { CAPACITY_BAND_EDGES, PRICE_BAND_EDGES, type FacetRow } from './venues.queries.js';
import { VENUE_CURRENCIES } from './venue-pricing.js';

/** A value of venue_type or amenities (a filter's value) and the venues it would leave. */
export interface FacetCount {
  value: string;
  count: number;
}

/** A state: its slug (the `state` filter), its name, and the venues it would leave. */
export interface StateFacetCount extends FacetCount {
  name: string;
}

/** A band of starting totals in one currency, min to max inclusive (max null: no upper end), as price_min/price_max. */
export interface PriceBandCount {
  currency: string;
  min: number;
  max: number | null;
  count: number;
}

/** A band of sleeping capacity, min to max inclusive (max null: no upper end), as capacity_min/capacity_max. */
export interface CapacityBandCount {
  min: number;
  max: number | null;
  count: number;
}

/** The counts a search was asked for; a facet not asked for is null. */
export interface VenueFacets {
  venueType: FacetCount[] | null;
  amenities: FacetCount[] | null;
  state: StateFacetCount[] | null;
  priceBand: PriceBandCount[] | null;
  capacityBand: CapacityBandCount[] | null;
}

/** Band `index` of width_bucket over `edges` (0: below the first edge) as inclusive whole-number bounds. */
function band(index: number, edges: readonly number[], floor: number) {
  return { min: index === 0 ? floor : edges[index - 1], max: index < edges.length ? edges[index] - 1 : null };
}

/** Most venues first, then by value: what a filter list shows. */
const byCount = (a: FacetCount, b: FacetCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * Each venue type found, with the venues whose property type contains it, as the venue_type filter counts them (a
 * case-insensitive substring): `rows` count venues by venue type (`value`) and property type (`label`).
 */
function venueTypeCounts(rows: readonly FacetRow[]): FacetCount[] {
  const types = [...new Set(rows.flatMap((r) => (r.value === null ? [] : [r.value])))];
  return types
    .map((value) => ({
      value,
      count: rows.reduce((sum, r) => sum + (r.label !== null && r.label.toLowerCase().includes(value.toLowerCase()) ? r.venues : 0), 0),
    }))
    .filter((c) => c.count > 0)
    .sort(byCount);
}

/** The facet statement's rows as the answer shows them: values with at least one venue, bands in their order. */
export function venueFacets(names: readonly VenueFacet[], rows: readonly FacetRow[]): VenueFacets {
  const of = (facet: VenueFacet) => rows.filter((r) => r.facet === facet);
  const asked = new Set(names);
  const currencyOrder = (c: string) => (VENUE_CURRENCIES as readonly string[]).indexOf(c);
  return {
    venueType: asked.has('venue_type') ? venueTypeCounts(of('venue_type')) : null,
    amenities: asked.has('amenities')
      ? of('amenities')
          .map((r) => ({ value: r.value, count: r.venues }))
          .sort(byCount)
      : null,
    state: asked.has('state')
      ? of('state')
          .map((r) => ({ value: r.value, name: r.label ?? r.value, count: r.venues }))
          .sort(byCount)
      : null,
    priceBand: asked.has('price_band')
      ? of('price_band')
          .map((r) => ({ currency: r.label!, ...band(Number(r.value), PRICE_BAND_EDGES, 0), count: r.venues }))
          .sort((a, b) => currencyOrder(a.currency) - currencyOrder(b.currency) || a.min - b.min)
      : null,
    capacityBand: asked.has('capacity_band')
      ? of('capacity_band')
          .map((r) => ({ ...band(Number(r.value), CAPACITY_BAND_EDGES, 0), count: r.venues }))
          .sort((a, b) => a.min - b.min)
      : null,
  };
}
