// Where catalogue rows live: the countries the interface names (§1), their states or regions, and real towns
// with approximate coordinates. The tables themselves are in places-us.ts and places-international.ts.
import { US_REGIONS } from './places-us.js';
import { INTERNATIONAL_REGIONS } from './places-international.js';
import { slugify } from '../../catalogue/slug.js';
import type { Country, CountryKey, Feature, RegionRow } from './place-kinds.js';

export const COUNTRIES: Record<CountryKey, Country> = {
  us: { name: 'United States', slug: 'united-states', currency: 'USD', names: 'en-us' },
  mexico: { name: 'Mexico', slug: 'mexico', currency: 'USD', names: 'es' },
  italy: { name: 'Italy', slug: 'italy', currency: 'EUR', names: 'it' },
  'costa-rica': { name: 'Costa Rica', slug: 'costa-rica', currency: 'USD', names: 'es' },
  ireland: { name: 'Ireland', slug: 'ireland', currency: 'EUR', names: 'en-ie' },
  australia: { name: 'Australia', slug: 'australia', currency: 'AUD', names: 'en-au' },
};

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
