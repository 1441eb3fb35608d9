// Authored table: venue types. `venueType` is the lowercase key; `propertyType` is display text that always
// contains the key (the venue_type filter of §4.1 is a substring match on it) and never another type's key,
// except that "barn" is inside "barndominium", as the spec's substring rule implies.
import type { CountryKey, Feature, Style } from './places.js';

export const NAMED_TYPES = [
  'estate', 'villa', 'ranch', 'mansion', 'cabin', 'castle', 'chalet', 'lodge', 'cottage', 'barn',
  'barndominium', 'hacienda', 'farmhouse', 'chateau',
] as const;
export const OTHER_TYPES = ['resort', 'winery', 'treehouse', 'manor', 'inn'] as const;
export type VenueTypeKey = (typeof NAMED_TYPES)[number] | (typeof OTHER_TYPES)[number];
export const VENUE_TYPES: readonly VenueTypeKey[] = [...NAMED_TYPES, ...OTHER_TYPES];

export interface VenueTypeInfo {
  /** Display labels; a label with a feature is only used where the town has that feature. */
  labels: ReadonlyArray<string | readonly [string, Feature]>;
  /** Bedroom range of a typical property of this type. */
  bedrooms: readonly [number, number];
  /** Price per bedroom-night against a US average of 1. */
  priceFactor: number;
  /** Year range the main building dates from, for historic wording. */
  built: readonly [number, number];
}

export const TYPE_INFO: Record<VenueTypeKey, VenueTypeInfo> = {
  estate: { labels: ['Estate', 'Historic Estate', 'Private Estate', 'Country Estate', 'Hilltop Estate', 'Equestrian Estate',
    'Garden Estate', ['Waterfront Estate', 'coast'], ['Vineyard Estate', 'wine'], ['Lakefront Estate', 'lake']],
    bedrooms: [6, 18], priceFactor: 1.2, built: [1880, 2015] },
  villa: { labels: ['Villa', 'Luxury Villa', 'Private Villa', 'Hillside Villa', 'Historic Villa', ['Oceanfront Villa', 'coast'],
    ['Beachfront Villa', 'coast'], ['Lakefront Villa', 'lake'], ['Vineyard Villa', 'wine'], ['Jungle Villa', 'tropical']],
    bedrooms: [4, 14], priceFactor: 1.2, built: [1700, 2020] },
  ranch: { labels: ['Ranch', 'Guest Ranch', 'Working Ranch', 'Horse Ranch', 'Cattle Ranch', ['Mountain Ranch', 'mountain'],
    ['Desert Ranch', 'desert'], ['River Ranch', 'river']],
    bedrooms: [5, 20], priceFactor: 0.95, built: [1870, 2015] },
  mansion: { labels: ['Mansion', 'Historic Mansion', 'Victorian Mansion', 'Georgian Mansion', 'Gilded Age Mansion',
    ['Waterfront Mansion', 'coast'], ['Lakeside Mansion', 'lake']],
    bedrooms: [7, 16], priceFactor: 1.3, built: [1840, 1935] },
  cabin: { labels: ['Cabin', 'Log Cabin', 'A-Frame Cabin', 'Cabin Retreat', ['Mountain Cabin', 'mountain'],
    ['Lakeside Cabin', 'lake'], ['Riverside Cabin', 'river']],
    bedrooms: [2, 7], priceFactor: 0.8, built: [1920, 2022] },
  castle: { labels: ['Castle', 'Medieval Castle', 'Restored Castle', 'Hilltop Castle', 'Castle Retreat', ['Lakeside Castle', 'lake'],
    ['Clifftop Castle', 'coast']],
    bedrooms: [10, 36], priceFactor: 1.45, built: [1150, 1650] },
  chalet: { labels: ['Chalet', 'Alpine Chalet', 'Timber Chalet', ['Ski Chalet', 'mountain'], ['Mountain Chalet', 'mountain'],
    ['Lakeside Chalet', 'lake']],
    bedrooms: [4, 10], priceFactor: 1.1, built: [1950, 2022] },
  lodge: { labels: ['Lodge', 'Timber Lodge', 'Hunting Lodge', 'Fishing Lodge', ['Mountain Lodge', 'mountain'],
    ['Lakeside Lodge', 'lake'], ['Eco Lodge', 'tropical'], ['Jungle Lodge', 'tropical']],
    bedrooms: [8, 28], priceFactor: 1.0, built: [1900, 2020] },
  cottage: { labels: ['Cottage', 'Stone Cottage', 'Garden Cottage', 'Cottage Compound', 'Thatched Cottage',
    ['Seaside Cottage', 'coast'], ['Lakeside Cottage', 'lake']],
    bedrooms: [2, 6], priceFactor: 0.9, built: [1820, 2015] },
  barn: { labels: ['Converted Barn', 'Restored Barn', 'Barn', 'Timber-Frame Barn', 'Dairy Barn', 'Modern Barn', 'Bank Barn'],
    bedrooms: [3, 10], priceFactor: 0.9, built: [1840, 1950] },
  barndominium: { labels: ['Barndominium', 'Modern Barndominium', 'Luxury Barndominium'],
    bedrooms: [3, 8], priceFactor: 0.85, built: [2008, 2024] },
  hacienda: { labels: ['Hacienda', 'Historic Hacienda', 'Restored Hacienda', 'Colonial Hacienda', ['Desert Hacienda', 'desert']],
    bedrooms: [8, 24], priceFactor: 1.05, built: [1640, 1910] },
  farmhouse: { labels: ['Farmhouse', 'Historic Farmhouse', 'Modern Farmhouse', 'Stone Farmhouse', 'Farmhouse Retreat',
    ['Vineyard Farmhouse', 'wine']],
    bedrooms: [4, 10], priceFactor: 0.9, built: [1780, 1930] },
  chateau: { labels: ['Chateau', 'French-Style Chateau', 'Hilltop Chateau', ['Vineyard Chateau', 'wine'], ['Lakeside Chateau', 'lake']],
    bedrooms: [8, 24], priceFactor: 1.35, built: [1600, 2010] },
  resort: { labels: ['Boutique Resort', 'Resort', 'Spa Resort', 'Wellness Resort', ['Beach Resort', 'coast'],
    ['Mountain Resort', 'mountain']],
    bedrooms: [18, 60], priceFactor: 1.0, built: [1950, 2022] },
  winery: { labels: ['Winery', 'Boutique Winery', 'Family Winery', 'Hillside Winery'],
    bedrooms: [3, 12], priceFactor: 1.1, built: [1880, 2018] },
  treehouse: { labels: ['Treehouse', 'Luxury Treehouse', 'Treehouse Retreat', ['Jungle Treehouse', 'tropical']],
    bedrooms: [1, 4], priceFactor: 1.15, built: [2010, 2024] },
  manor: { labels: ['Manor House', 'Manor', 'Georgian Manor', 'Tudor Manor', 'Country Manor'],
    bedrooms: [8, 20], priceFactor: 1.3, built: [1650, 1920] },
  inn: { labels: ['Country Inn', 'Historic Inn', 'Boutique Inn', 'Inn', ['Seaside Inn', 'coast']],
    bedrooms: [8, 24], priceFactor: 1.0, built: [1760, 1990] },
};

// Period styles named after English-speaking history only fit English-speaking countries.
const ANGLO_ONLY = /Tudor|Georgian|Victorian|Thatched|Bank Barn/;
const US_ONLY = /Gilded Age/;

/** Whether a display label suits the country's naming culture ("Tudor Manor" is wrong in Venice). */
export function labelFitsCountry(label: string, country: CountryKey): boolean {
  if (US_ONLY.test(label)) return country === 'us';
  if (ANGLO_ONLY.test(label)) return country === 'us' || country === 'ireland' || country === 'australia';
  return true;
}

type Weights = Partial<Record<VenueTypeKey, number>>;

/** Relative frequency of each type per region style; anything missing is very rare (0.05) but possible. */
export const STYLE_WEIGHTS: Record<Style, Weights> = {
  pacific: { estate: 12, villa: 7, ranch: 8, mansion: 5, cabin: 6, castle: 0.3, chalet: 2, lodge: 5, cottage: 6, barn: 9,
    barndominium: 2, hacienda: 2, farmhouse: 8, chateau: 2, resort: 3, winery: 7, treehouse: 2, manor: 1, inn: 3 },
  southwest: { estate: 8, villa: 6, ranch: 14, mansion: 4, cabin: 4, castle: 0.2, chalet: 1, lodge: 6, cottage: 3, barn: 5,
    barndominium: 4, hacienda: 12, farmhouse: 4, chateau: 1, resort: 6, winery: 2, treehouse: 1, manor: 0.5, inn: 3 },
  mountain: { estate: 7, villa: 2, ranch: 12, mansion: 4, cabin: 14, castle: 0.3, chalet: 10, lodge: 14, cottage: 5, barn: 8,
    barndominium: 3, hacienda: 0.5, farmhouse: 4, chateau: 1, resort: 4, winery: 0.5, treehouse: 3, manor: 1, inn: 3 },
  south: { estate: 12, villa: 3, ranch: 9, mansion: 8, cabin: 7, castle: 0.3, chalet: 1, lodge: 4, cottage: 5, barn: 12,
    barndominium: 8, hacienda: 1, farmhouse: 10, chateau: 1, resort: 3, winery: 3, treehouse: 3, manor: 3, inn: 4 },
  coastal: { estate: 12, villa: 12, ranch: 2, mansion: 10, cabin: 2, castle: 0.2, chalet: 0.3, lodge: 2, cottage: 9, barn: 2,
    barndominium: 1, hacienda: 1.5, farmhouse: 3, chateau: 0.5, resort: 8, winery: 0.5, treehouse: 2, manor: 2, inn: 5 },
  northeast: { estate: 14, villa: 3, ranch: 2, mansion: 10, cabin: 7, castle: 0.8, chalet: 3, lodge: 6, cottage: 10, barn: 12,
    barndominium: 2, hacienda: 0.2, farmhouse: 12, chateau: 1.5, resort: 3, winery: 3, treehouse: 2, manor: 6, inn: 7 },
  midwest: { estate: 10, villa: 2, ranch: 4, mansion: 9, cabin: 9, castle: 0.5, chalet: 2, lodge: 8, cottage: 9, barn: 14,
    barndominium: 5, hacienda: 0.2, farmhouse: 12, chateau: 2, resort: 3, winery: 4, treehouse: 2, manor: 4, inn: 5 },
  mexico: { hacienda: 30, villa: 25, estate: 8, ranch: 6, mansion: 4, cabin: 1, cottage: 2, resort: 10, castle: 0.5,
    lodge: 1, barn: 0.5, farmhouse: 1, chateau: 0.3, winery: 2, treehouse: 2, manor: 0.5, inn: 3 },
  italy: { villa: 30, castle: 14, estate: 10, farmhouse: 12, chateau: 3, mansion: 4, manor: 4, cottage: 2, lodge: 1,
    chalet: 1, winery: 8, resort: 4, inn: 2, barn: 1, cabin: 0.2 },
  'costa-rica': { villa: 22, estate: 8, ranch: 6, hacienda: 10, cabin: 5, lodge: 10, treehouse: 8, resort: 12, cottage: 3,
    farmhouse: 3, mansion: 2, inn: 3 },
  ireland: { castle: 25, manor: 15, estate: 14, mansion: 8, cottage: 10, lodge: 5, farmhouse: 6, barn: 3, chateau: 2, inn: 8,
    villa: 1, cabin: 1, chalet: 0.5 },
  australia: { estate: 14, villa: 8, ranch: 4, farmhouse: 10, barn: 8, winery: 12, cottage: 8, lodge: 6, cabin: 4, resort: 6,
    mansion: 4, manor: 3, chalet: 2, treehouse: 2, inn: 2, castle: 0.3, chateau: 1, barndominium: 1 },
};

/** Multipliers by town feature: wine country favours wineries and chateaux, mountains cabins and chalets. */
export const FEATURE_BOOSTS: Partial<Record<Feature, Weights>> = {
  coast: { villa: 1.5, cottage: 1.3, resort: 1.4, cabin: 0.5, chalet: 0.3, barndominium: 0.5 },
  mountain: { cabin: 2, lodge: 2, chalet: 2.5, treehouse: 1.3, mansion: 0.6 },
  wine: { winery: 4, chateau: 2.5, villa: 1.5, estate: 1.3, farmhouse: 1.2 },
  lake: { cabin: 1.5, lodge: 1.4, cottage: 1.3, villa: 1.2 },
  city: { mansion: 2, manor: 1.5, inn: 1.5, cabin: 0.2, barn: 0.3, ranch: 0.2, barndominium: 0.2, treehouse: 0.3, chalet: 0.1,
    lodge: 0.4, cottage: 0.6 },
  desert: { hacienda: 2, ranch: 1.5, cabin: 0.5, cottage: 0.6 },
  tropical: { treehouse: 1.5, villa: 1.3, resort: 1.3, cabin: 0.6, chalet: 0.1 },
  historic: { mansion: 1.3, castle: 1.5, manor: 1.4, inn: 1.3, hacienda: 1.2 },
  country: { farmhouse: 1.4, barn: 1.4, ranch: 1.2 },
};

/** Weights of every type for a town, in VENUE_TYPES order. */
export function typeWeightsFor(style: Style, features: ReadonlySet<Feature>): number[] {
  const base = STYLE_WEIGHTS[style];
  return VENUE_TYPES.map((type) => {
    let w = base[type] ?? 0.05;
    for (const feature of features) w *= FEATURE_BOOSTS[feature]?.[type] ?? 1;
    return w;
  });
}
