// Authored regional budget data (§2.6, §4.5): the shapes, the national fallback multipliers and the climate profiles
// (popular wedding months and best weather) that regions name. Ranges are whole-wedding budgets, all in, USD.

export const REGIONAL_DATA = {
  version: '2025.1',
  /** as_of of the endpoint when no region matched: the year the data set describes. */
  dataYear: 2025,
  source: 'Wedding Discovery regional budget survey 2025 (couples’ reported totals and vendor price sheets), USD',
} as const;

export type Month =
  'January' | 'February' | 'March' | 'April' | 'May' | 'June' | 'July' | 'August' | 'September' | 'October' | 'November' | 'December';

/** Popular wedding months; a month may be in no list (unclassified: shoulder is then assumed). */
export interface PopularSeasons {
  peak: readonly Month[];
  shoulder: readonly Month[];
  offSeason: readonly Month[];
  bestWeather: string;
}

export interface Multipliers {
  seasonal: { peak: number; shoulder: number; offSeason: number };
  dayOfWeek: { friday: number; saturday: number; sunday: number };
}

/** One authored region. Coverage follows from the data: own multipliers → calculator; a city whose parent has them → parent_state; else insights_only. */
export interface RegionRecord {
  slug: string;
  name: string;
  type: 'state' | 'city';
  country: string;
  /** USPS code of a US state. */
  usps?: string;
  /** Slug of the state (or destination country) a city lies in. */
  parent?: string;
  low: number;
  high: number;
  averageGuestCount: number;
  climate: ClimateKey;
  /** Own multipliers; absent: the parent's (cities), else the national fallback. */
  multipliers?: Multipliers;
  /** Colloquial names that resolve to this region (matched_on alias). */
  aliases?: readonly string[];
  /** Southern hemisphere: season words mean the months six apart (summer = December–February). */
  southern?: boolean;
  /** Attribution phrase; REGIONAL_DATA.source when absent. */
  source?: string;
  dataYear: number;
}

/** Used by insights_only regions (a published range without regional multipliers). */
export const NATIONAL_FALLBACK: Multipliers = {
  seasonal: { peak: 1.15, shoulder: 1.0, offSeason: 0.85 },
  dayOfWeek: { friday: 0.9, saturday: 1.0, sunday: 0.85 },
};

/** §4.5 guests scaling: guestMultiplier = fixedShare + (1 − fixedShare) × guests / averageGuestCount, clamped. */
export const GUEST_SCALING = {
  /** Share of a wedding budget that does not grow with the guest count (attire, photography, planning, officiant). */
  fixedShare: 0.35,
  min: 0.5,
  max: 2.5,
  /** scaled.low/high are rounded to the nearest multiple of this many dollars. */
  roundTo: 100,
} as const;

/** [peak, shoulder, offSeason, friday, saturday, sunday] → Multipliers, to keep the region tables one line each. */
export const mult = (peak: number, shoulder: number, offSeason: number, friday: number, saturday: number, sunday: number): Multipliers => ({
  seasonal: { peak, shoulder, offSeason },
  dayOfWeek: { friday, saturday, sunday },
});

export const CLIMATES = {
  'new-england': {
    peak: ['June', 'September', 'October'],
    shoulder: ['May', 'July', 'August'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'Mid-September to mid-October: dry days and autumn colour',
  },
  'mid-atlantic': {
    peak: ['May', 'June', 'September', 'October'],
    shoulder: ['April', 'July', 'August', 'November'],
    offSeason: ['December', 'January', 'February', 'March'],
    bestWeather: 'Late May and early October: mild and less humid',
  },
  southeast: {
    peak: ['April', 'May', 'October', 'November'],
    shoulder: ['March', 'June', 'September'],
    offSeason: ['July', 'August', 'December', 'January', 'February'],
    bestWeather: 'April and October: warm, before and after the humid summer',
  },
  gulf: {
    peak: ['March', 'April', 'October', 'November'],
    shoulder: ['February', 'May', 'December'],
    offSeason: ['June', 'July', 'August', 'September'],
    bestWeather: 'March–April and late October: warm without hurricane-season storms',
  },
  florida: {
    peak: ['February', 'March', 'April', 'November'],
    shoulder: ['January', 'May', 'October', 'December'],
    offSeason: ['June', 'July', 'August', 'September'],
    bestWeather: 'February to April: dry season, warm days and low humidity',
  },
  texas: {
    peak: ['March', 'April', 'May', 'October', 'November'],
    shoulder: ['February', 'September', 'December'],
    offSeason: ['June', 'July', 'August', 'January'],
    bestWeather: 'Spring wildflower season (March–April) and late October',
  },
  midwest: {
    peak: ['June', 'August', 'September', 'October'],
    shoulder: ['May', 'July'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'September: warm days, cool evenings, little rain',
  },
  plains: {
    peak: ['May', 'June', 'September', 'October'],
    shoulder: ['April', 'July', 'August'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'Late September and early October: mild and calm',
  },
  mountain: {
    peak: ['June', 'July', 'August', 'September'],
    shoulder: ['May', 'October', 'December', 'January'],
    offSeason: ['April', 'November'],
    bestWeather: 'July to mid-September: warm days, cool nights, wildflowers then aspens',
  },
  desert: {
    peak: ['March', 'April', 'October', 'November'],
    shoulder: ['February', 'May', 'December'],
    offSeason: ['June', 'July', 'August'],
    bestWeather: 'March–April and late October–November: warm days, cool evenings',
  },
  california: {
    peak: ['May', 'June', 'September', 'October'],
    shoulder: ['April', 'July', 'August', 'November'],
    offSeason: ['December', 'January', 'February', 'March'],
    bestWeather: 'September and October: warm, dry and after the summer fog',
  },
  'pacific-northwest': {
    peak: ['June', 'July', 'August', 'September'],
    shoulder: ['May', 'October'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'July and August: the dry season',
  },
  hawaii: {
    peak: ['April', 'May', 'June', 'September', 'October'],
    shoulder: ['July', 'August', 'November'],
    offSeason: ['December', 'January', 'February', 'March'],
    bestWeather: 'April–May and September–October: dry, between the busy seasons',
  },
  alaska: {
    peak: ['June', 'July', 'August'],
    shoulder: ['May', 'September'],
    offSeason: [],
    bestWeather: 'Late June to early August: long daylight and the warmest weeks',
  },
  caribbean: {
    peak: ['December', 'January', 'February', 'March', 'April'],
    shoulder: ['May', 'November'],
    offSeason: ['June', 'July', 'August', 'September', 'October'],
    bestWeather: 'December to April: the dry season, outside hurricane months',
  },
  'central-mexico': {
    peak: ['October', 'November', 'February', 'March'],
    shoulder: ['December', 'January', 'April'],
    offSeason: ['June', 'July', 'August', 'September'],
    bestWeather: 'October to March: dry, sunny highland days and cool nights',
  },
  mediterranean: {
    peak: ['May', 'June', 'September'],
    shoulder: ['April', 'July', 'October'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'Late May–June and September: warm, before and after the August heat and closures',
  },
  tropical: {
    peak: ['December', 'January', 'February', 'March', 'April'],
    shoulder: ['May', 'July', 'November'],
    offSeason: ['June', 'August', 'September', 'October'],
    bestWeather: 'January to April: the dry season on the Pacific coast',
  },
  ireland: {
    peak: ['May', 'June', 'July', 'August', 'September'],
    shoulder: ['April', 'October'],
    offSeason: ['November', 'December', 'January', 'February', 'March'],
    bestWeather: 'May and June: the driest, longest days',
  },
  australia: {
    peak: ['September', 'October', 'November', 'March', 'April'],
    shoulder: ['February', 'May', 'December'],
    offSeason: ['June', 'July', 'August', 'January'],
    bestWeather: 'Spring (September–November) and autumn (March–April): mild between the hot summer and cool winter',
  },
} as const satisfies Record<string, PopularSeasons>;

export type ClimateKey = keyof typeof CLIMATES;
