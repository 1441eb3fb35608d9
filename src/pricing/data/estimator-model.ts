// The pricing estimator's constants (§4.3). Every figure GET /venues/pricing returns is computed from this file
// alone by pricing.service.ts; docs/pricing.md gives the formula and a worked example. Changing a
// number here is a model change: bump `version` (it is echoed in every result's parameters.model_version).

/** A pricing region of §4.3: its id, display name, the short forms callers may send, and its cost index. */
export interface EstimatorRegion {
  id: string;
  name: string;
  /** Other accepted spellings (USPS code, local name, a town the region is known by); matched case-insensitively. */
  short: readonly string[];
  /** Price level of weddings in the region against the US national average of 1.00 (applies to every USD amount). */
  costIndex: number;
}

export const ESTIMATOR_MODEL = {
  version: '2025.1',
  source:
    'Wedding Discovery cost model 2025.1: national reference amounts from 2024 whole-property rental bookings and ' +
    'published catering and hotel rates, regional indexes from the same sources (USD).',

  /** National reference amounts, USD, before the region's cost index. */
  reference: {
    /** Whole-property venue, estate, weekend, peak season, per night; it sleeps up to `includedOvernightGuests`. */
    venueNight: 2700,
    /** Overnight guests the whole-property venue itself sleeps. */
    includedOvernightGuests: 20,
    /** Each overnight guest beyond those, per night (nearby rooms or cottages). */
    extraLodgingPerGuestNight: 120,
    /** Catering, rentals and staff per event guest. */
    eventPerGuest: 95,
  },

  /** The comparison of savings_vs_traditional: a banquet venue with catering plus a hotel room block, USD. */
  traditional: {
    /** Venue hire and catering per event guest at a traditional banquet venue, weekend, peak. */
    banquetPerGuest: 190,
    /** Hotel room per overnight guest per night, peak. */
    hotelPerGuestNight: 170,
  },

  venueTypeFactors: { barn: 0.8, estate: 1.0, resort: 1.25, winery: 1.15, garden: 0.9, historic: 1.1, ranch: 0.85, villa: 1.2 },
  seasonFactors: { peak: 1.0, shoulder: 0.85, off: 0.7 },
  eventTypeFactors: { weekend: 1.0, weekday: 0.75 },

  /** price_range spans these shares of estimated_total, each end rounded to the nearest 100. */
  rangeShares: { low: 0.85, high: 1.2 },
  /** estimated_total is rounded to the nearest multiple of this many dollars. */
  roundTotalTo: 10,

  defaults: { region: 'california', eventType: 'weekend', eventGuests: 100, overnightGuests: 20, nights: 2, venueType: 'estate', season: 'peak' },
  bounds: { eventGuests: [1, 500], overnightGuests: [1, 350], nights: [2, 7] },

  regions: [
    { id: 'california', name: 'California', short: ['CA', 'Calif'], costIndex: 1.3 },
    { id: 'new-york', name: 'New York', short: ['NY', 'NYS'], costIndex: 1.35 },
    { id: 'texas', name: 'Texas', short: ['TX'], costIndex: 0.9 },
    { id: 'florida', name: 'Florida', short: ['FL'], costIndex: 1.05 },
    { id: 'michigan', name: 'Michigan', short: ['MI'], costIndex: 0.85 },
    { id: 'colorado', name: 'Colorado', short: ['CO'], costIndex: 1.15 },
    { id: 'north-carolina', name: 'North Carolina', short: ['NC'], costIndex: 0.92 },
    { id: 'tennessee', name: 'Tennessee', short: ['TN'], costIndex: 0.95 },
    { id: 'georgia', name: 'Georgia', short: ['GA'], costIndex: 0.93 },
    { id: 'utah', name: 'Utah', short: ['UT'], costIndex: 0.9 },
    { id: 'new-jersey', name: 'New Jersey', short: ['NJ'], costIndex: 1.25 },
    { id: 'massachusetts', name: 'Massachusetts', short: ['MA', 'Mass'], costIndex: 1.25 },
    { id: 'pennsylvania', name: 'Pennsylvania', short: ['PA', 'Penn'], costIndex: 1.0 },
    { id: 'illinois', name: 'Illinois', short: ['IL'], costIndex: 1.05 },
    { id: 'virginia', name: 'Virginia', short: ['VA'], costIndex: 1.0 },
    { id: 'washington', name: 'Washington', short: ['WA', 'Washington State'], costIndex: 1.1 },
    { id: 'arizona', name: 'Arizona', short: ['AZ'], costIndex: 0.98 },
    { id: 'oregon', name: 'Oregon', short: ['OR'], costIndex: 1.0 },
    { id: 'mexico', name: 'Mexico', short: ['MX', 'México'], costIndex: 0.75 },
    { id: 'italy', name: 'Italy', short: ['IT', 'Italia'], costIndex: 1.2 },
    { id: 'italy-tuscany', name: 'Tuscany, Italy', short: ['Tuscany', 'Toscana'], costIndex: 1.3 },
    { id: 'italy-lake-como', name: 'Lake Como, Italy', short: ['Lake Como', 'Como', 'Lago di Como'], costIndex: 1.55 },
    { id: 'italy-amalfi-coast', name: 'Amalfi Coast, Italy', short: ['Amalfi Coast', 'Amalfi', 'Positano'], costIndex: 1.5 },
    { id: 'italy-sicily', name: 'Sicily, Italy', short: ['Sicily', 'Sicilia'], costIndex: 1.0 },
    { id: 'italy-puglia', name: 'Puglia, Italy', short: ['Puglia', 'Apulia'], costIndex: 1.05 },
    { id: 'italy-umbria', name: 'Umbria, Italy', short: ['Umbria'], costIndex: 1.05 },
    { id: 'italy-rome', name: 'Rome, Italy', short: ['Rome', 'Roma', 'Lazio'], costIndex: 1.25 },
    { id: 'italy-florence', name: 'Florence, Italy', short: ['Florence', 'Firenze'], costIndex: 1.35 },
    { id: 'italy-venice', name: 'Venice, Italy', short: ['Venice', 'Venezia', 'Veneto'], costIndex: 1.45 },
    { id: 'australia', name: 'Australia', short: ['AU', 'AUS'], costIndex: 1.1 },
    { id: 'other', name: 'Other (US national average)', short: ['national', 'US'], costIndex: 1.0 },
  ] satisfies EstimatorRegion[],
} as const;

export type EstimatorVenueType = keyof typeof ESTIMATOR_MODEL.venueTypeFactors;
export type EstimatorSeason = keyof typeof ESTIMATOR_MODEL.seasonFactors;
export type EstimatorEventType = keyof typeof ESTIMATOR_MODEL.eventTypeFactors;
