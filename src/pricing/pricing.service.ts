import { ESTIMATOR_MODEL } from './data/estimator-model.js';
import type { PricingEstimate } from './pricing.inputs.js';
import { usdText } from '../catalogue/money.js';

/** §2.4 PricingResult. `parameters` is a free-form echo whose keys are the REST (snake_case) names on both surfaces. */
export interface PricingResult {
  estimatedTotal: number;
  priceRange: string;
  perNightAverage: number;
  /** §9: deprecated alias of perNightAverage, same value. */
  perNight: number;
  summary: string;
  savingsVsTraditional: { savingsPercent: number; note: string } | null;
  parameters: Record<string, string | number>;
}

/** The estimate's parts, USD, unrounded: what the worked example of docs/pricing.md walks through. */
export interface EstimateBreakdown {
  venueStay: number;
  extraLodging: number;
  event: number;
  traditional: number;
}

const roundTo = (n: number, step: number) => Math.round(n / step + 1e-9) * step;

/**
 * The cost model of §4.3 (constants in data/estimator-model.ts; docs/pricing.md):
 *   venueStay    = venueNight × costIndex × typeFactor × seasonFactor × dayFactor × nights
 *   extraLodging = max(0, overnightGuests − includedOvernightGuests) × nights × extraLodgingPerGuestNight × costIndex × seasonFactor
 *   event        = eventGuests × eventPerGuest × costIndex
 *   traditional  = eventGuests × banquetPerGuest × costIndex × seasonFactor × dayFactor
 *                + overnightGuests × nights × hotelPerGuestNight × costIndex × seasonFactor
 */
export function estimateBreakdown(p: PricingEstimate): EstimateBreakdown {
  const m = ESTIMATOR_MODEL;
  const index = p.region.costIndex;
  const season = m.seasonFactors[p.season];
  const day = m.eventTypeFactors[p.eventType];
  const extraGuests = Math.max(0, p.overnightGuests - m.reference.includedOvernightGuests);
  return {
    venueStay: m.reference.venueNight * index * m.venueTypeFactors[p.venueType] * season * day * p.nights,
    extraLodging: extraGuests * p.nights * m.reference.extraLodgingPerGuestNight * index * season,
    event: p.eventGuests * m.reference.eventPerGuest * index,
    traditional:
      p.eventGuests * m.traditional.banquetPerGuest * index * season * day +
      p.overnightGuests * p.nights * m.traditional.hotelPerGuestNight * index * season,
  };
}

/** GET /api/v1/venues/pricing, GraphQL pricingEstimate (§4.3, §2.4). Deterministic: same input, same figures. */
export function estimatePricing(p: PricingEstimate): PricingResult {
  const m = ESTIMATOR_MODEL;
  const parts = estimateBreakdown(p);
  const estimatedTotal = roundTo(parts.venueStay + parts.extraLodging + parts.event, m.roundTotalTo);
  const low = roundTo(estimatedTotal * m.rangeShares.low, 100);
  const high = roundTo(estimatedTotal * m.rangeShares.high, 100);
  const perNightAverage = Math.round((estimatedTotal / p.nights) * 100) / 100;
  const traditional = roundTo(parts.traditional, m.roundTotalTo);
  const savingsPercent = Math.round(((traditional - estimatedTotal) / traditional) * 100);
  const seasonText = p.season === 'off' ? 'off-season' : `${p.season}-season`;
  const article = /^[aeiou]/.test(p.venueType) ? 'an' : 'a';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    estimatedTotal,
    priceRange: `${usdText(low)}–${usdText(high)}`,
    perNightAverage,
    perNight: perNightAverage,
    summary:
      `About ${usdText(estimatedTotal)} all in for a ${p.nights}-night ${seasonText} ${p.eventType} wedding at ${article} ${p.venueType} in ${p.region.name} ` +
      `with ${plural(p.eventGuests, 'event guest')} and ${p.overnightGuests} staying overnight (${usdText(perNightAverage)} per night on average; a regional estimate, not a quote).`,
    savingsVsTraditional:
      savingsPercent > 0
        ? {
            savingsPercent,
            note:
              `About ${savingsPercent}% less than a traditional banquet venue with a hotel room block for the same guests ` +
              `(estimated ${usdText(traditional)}).`,
          }
        : null,
    parameters: {
      region: p.region.id,
      event_type: p.eventType,
      event_guests: p.eventGuests,
      overnight_guests: p.overnightGuests,
      nights: p.nights,
      venue_type: p.venueType,
      season: p.season,
      model_version: m.version,
    },
  };
}
