// The shapes of the authored place tables (places-us.ts, places-international.ts) and of the words that steer what
// is generated in a place. The tables are read into regions by places.ts.

/** Landscape hints that steer amenities, venue types and wording (ocean-view only on a coast, and so on). */
export type Feature = 'coast' | 'mountain' | 'lake' | 'wine' | 'river' | 'desert' | 'island' | 'city' | 'country' | 'tropical' | 'historic';

/** How venue types are weighted in a region (haciendas in Mexico, castles in Ireland...). See venue-types.ts. */
export type Style =
  'pacific' | 'southwest' | 'mountain' | 'south' | 'coastal' | 'northeast' | 'midwest' | 'mexico' | 'italy' | 'costa-rica' | 'ireland' | 'australia';

export type CountryKey = 'us' | 'mexico' | 'italy' | 'costa-rica' | 'ireland' | 'australia';

export interface Country {
  name: string;
  slug: string;
  /** Currency the venue page shows (§2.1). */
  currency: 'USD' | 'EUR' | 'AUD';
  /** Name culture used for venue names. */
  names: 'en-us' | 'en-ie' | 'en-au' | 'es' | 'it';
}

/** [name, latitude, longitude, space-separated features] */
export type CityRow = readonly [string, number, number, string];

export interface RegionRow {
  /** Display name stored in `state` ("California", "Tuscany", "County Kerry"). */
  name: string;
  country: CountryKey;
  /** Relative share of generated venues and vendors. */
  weight: number;
  style: Style;
  /** Typical lodging tax, percent, multiple of 0.5. */
  taxPercent: number;
  /** Price level against a US average of 1. */
  priceFactor: number;
  cities: readonly CityRow[];
}
