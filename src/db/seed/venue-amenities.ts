// Amenities (lowercase kebab, §4.1 names pool, hot-tub, ocean-view, mountain-view, outdoor-ceremony,
// pet-friendly) and listing categories, chosen from geography and type so they make sense together:
// ocean-view only on a coast, vineyard-view only in wine country, lake-access only by a lake.
import type { CountryKey, Feature } from './place-kinds.js';
import type { Random } from './random.js';
import type { VenueTypeKey } from './venue-types.js';

export const NAMED_AMENITIES = ['pool', 'hot-tub', 'ocean-view', 'mountain-view', 'outdoor-ceremony', 'pet-friendly'] as const;

interface AmenityContext {
  features: ReadonlySet<Feature>;
  type: VenueTypeKey | null;
  country: CountryKey;
  bedrooms: number;
}

type Rule = (c: AmenityContext) => number;
const has = (c: AmenityContext, f: Feature): boolean => c.features.has(f);
const isType = (c: AmenityContext, ...types: VenueTypeKey[]): boolean => c.type !== null && types.includes(c.type);
const warm = (c: AmenityContext): boolean => has(c, 'tropical') || has(c, 'desert') || c.country === 'mexico' || c.country === 'costa-rica';

/** Probability of each amenity; the listed order is the stored order. */
const RULES: ReadonlyArray<readonly [string, Rule]> = [
  ['pool', (c) => (warm(c) ? 0.75 : has(c, 'mountain') ? 0.15 : isType(c, 'villa', 'estate', 'resort') ? 0.6 : 0.3)],
  ['hot-tub', (c) => (has(c, 'mountain') ? 0.65 : isType(c, 'cabin', 'chalet', 'lodge', 'treehouse') ? 0.5 : 0.22)],
  ['ocean-view', (c) => (has(c, 'coast') ? 0.6 : 0)],
  ['mountain-view', (c) => (has(c, 'mountain') ? 0.72 : has(c, 'desert') ? 0.25 : 0)],
  ['outdoor-ceremony', (c) => (warm(c) || has(c, 'coast') ? 0.95 : 0.85)],
  ['pet-friendly', (c) => (isType(c, 'cabin', 'ranch', 'farmhouse', 'barn', 'barndominium', 'lodge') ? 0.5 : 0.25)],
  ['fire-pit', (c) => (has(c, 'mountain') || has(c, 'lake') ? 0.7 : has(c, 'tropical') ? 0.25 : 0.45)],
  ['wifi', () => 0.93],
  ['catering-kitchen', (c) => (c.bedrooms >= 10 ? 0.7 : 0.45)],
  ['wheelchair-accessible', (c) => (isType(c, 'treehouse', 'castle', 'cabin') ? 0.1 : 0.38)],
  ['lake-access', (c) => (has(c, 'lake') ? 0.75 : 0)],
  ['river-access', (c) => (has(c, 'river') ? 0.5 : 0)],
  ['beach-access', (c) => (has(c, 'coast') ? 0.4 : 0)],
  ['vineyard-view', (c) => (has(c, 'wine') ? 0.65 : 0)],
  ['ev-charger', (c) => (c.country === 'us' ? 0.22 : 0.07)],
  ['tennis-court', (c) => (isType(c, 'estate', 'mansion', 'resort', 'manor') ? 0.2 : 0.05)],
  ['bridal-suite', () => 0.6],
  ['dance-floor', (c) => (isType(c, 'barn', 'barndominium', 'ranch', 'resort') ? 0.55 : 0.3)],
  ['on-site-parking', (c) => (has(c, 'city') ? 0.4 : 0.8)],
  ['air-conditioning', (c) => (c.country === 'ireland' ? 0.03 : warm(c) ? 0.8 : 0.5)],
  ['sauna', (c) => (has(c, 'mountain') ? 0.2 : 0.04)],
  ['game-room', () => 0.22],
  ['chapel', (c) => (isType(c, 'castle', 'hacienda', 'manor', 'mansion', 'chateau') ? 0.3 : 0.03)],
  ['garden', (c) => (isType(c, 'villa', 'estate', 'manor', 'mansion', 'cottage') ? 0.6 : 0.3)],
  ['horseback-riding', (c) => (isType(c, 'ranch', 'hacienda') ? 0.6 : 0.02)],
];

export function amenitiesFor(r: Random, c: AmenityContext): string[] {
  return RULES.filter(([, rule]) => r.chance(rule(c))).map(([name]) => name);
}

interface CategoryContext extends AmenityContext {
  amenities: readonly string[];
  builtYear: number | null;
  sleeps: number | null;
  /** Position of the venue's price among its peers, 0 (cheapest) to 1; null when unpriced. */
  priceLevel: number | null;
}

/** Listing categories such as ["Waterfront", "Historic", "Luxury"]: one to four, most specific first. */
export function categoriesFor(r: Random, c: CategoryContext): string[] {
  const candidates: string[] = [];
  const add = (name: string, p: number): void => {
    if (r.chance(p)) candidates.push(name);
  };
  add('Waterfront', has(c, 'coast') || has(c, 'lake') || has(c, 'river') ? 0.8 : 0);
  add('Beach', c.amenities.includes('beach-access') ? 0.8 : 0);
  add('Mountain', has(c, 'mountain') ? 0.7 : 0);
  add('Vineyard', has(c, 'wine') ? 0.75 : 0);
  add('Historic', (c.builtYear !== null && c.builtYear < 1900) || has(c, 'historic') ? 0.7 : 0);
  add('Luxury', c.priceLevel !== null && c.priceLevel > 0.7 ? 0.8 : 0);
  add('Rustic', isType(c, 'barn', 'ranch', 'cabin', 'farmhouse', 'barndominium', 'lodge') ? 0.75 : 0);
  add('Garden', c.amenities.includes('garden') ? 0.7 : 0);
  add('Countryside', has(c, 'country') ? 0.5 : 0);
  add('Desert', has(c, 'desert') ? 0.7 : 0);
  add('Tropical', has(c, 'tropical') ? 0.7 : 0);
  add('Intimate', c.sleeps !== null && c.sleeps <= 12 ? 0.7 : 0);
  add('Large Groups', c.sleeps !== null && c.sleeps >= 40 ? 0.7 : 0);
  add('City', has(c, 'city') ? 0.5 : 0);
  add('Destination', c.country !== 'us' ? 0.4 : 0);
  add('Romantic', 0.15);
  add('Boho', 0.08);
  add('Modern', isType(c, 'barndominium') ? 0.6 : 0.06);
  if (candidates.length === 0) candidates.push(r.pick(['Romantic', 'Classic', 'Elegant', 'Relaxed']));
  return candidates.slice(0, 4);
}
