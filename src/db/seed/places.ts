// Where catalogue rows live: the countries the interface names (§1), their states or regions, and real towns
// with approximate coordinates. The tables themselves are in places-us.ts and places-international.ts.
import { US_REGIONS } from './places-us.js';
import { INTERNATIONAL_REGIONS } from './places-international.js';
import { slugify } from '../../catalogue/slug.js';

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

export const COUNTRIES: Record<CountryKey, Country> = {
  us: { name: 'United States', slug: 'united-states', currency: 'USD', names: 'en-us' },
  mexico: { name: 'Mexico', slug: 'mexico', currency: 'USD', names: 'es' },
  italy: { name: 'Italy', slug: 'italy', currency: 'EUR', names: 'it' },
  'costa-rica': { name: 'Costa Rica', slug: 'costa-rica', currency: 'USD', names: 'es' },
  ireland: { name: 'Ireland', slug: 'ireland', currency: 'EUR', names: 'en-ie' },
  australia: { name: 'Australia', slug: 'australia', currency: 'AUD', names: 'en-au' },
};

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

export interface City {
  name: string;
  slug: string;
  latitude: number;
  longitude: number;
  features: ReadonlySet<Feature>;
}

export interface Region extends Omit<RegionRow, 'cities'> {
  slug: string;
  countryInfo: Country;
  cities: readonly City[];
}

function toRegion(row: RegionRow): Region {
  return {
    ...row,
    slug: slugify(row.name),
    countryInfo: COUNTRIES[row.country],
    cities: row.cities.map(([name, latitude, longitude, features]) => ({
      name,
      slug: slugify(name),
      latitude,
      longitude,
      features: new Set(features.split(' ').filter(Boolean) as Feature[]),
    })),
  };
}

/** Every region, US states first, in a fixed order (the order is part of the deterministic output). */
export const REGIONS: readonly Region[] = [...US_REGIONS, ...INTERNATIONAL_REGIONS].map(toRegion);
export const REGION_WEIGHTS: readonly number[] = REGIONS.map((r) => r.weight);

/** First path segment of a venue slug: the US state slug, or the country slug abroad. */
export function slugRoot(region: Region): string[] {
  return region.country === 'us' ? [region.slug] : [region.countryInfo.slug, region.slug];
}
