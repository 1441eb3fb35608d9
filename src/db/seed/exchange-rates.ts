// Daily exchange rates for every date from 2025-01-01 to 2027-12-31 (§2.1 converts Australian prices at the
// day's USD→AUD rate; §2.5 converts euro listings at EUR→USD). Each series is a smooth, mean-reverting random
// walk from its own stream, kept inside a believable band.
import type { Prisma } from '../../generated/prisma/client.js';
import { randomFor } from './random.js';

export const RATES_FROM = Date.UTC(2025, 0, 1);
export const RATES_TO = Date.UTC(2027, 11, 31);
const DAY_MS = 86_400_000;

interface Series {
  base: string;
  quote: string;
  low: number;
  high: number;
}

const SERIES: readonly Series[] = [
  { base: 'USD', quote: 'AUD', low: 1.5, high: 1.56 },
  { base: 'EUR', quote: 'USD', low: 1.05, high: 1.12 },
];

/** Every rate row, ordered by pair then date. `rateDate` is UTC midnight, stored as a DATE. */
export function exchangeRateRows(): Prisma.ExchangeRateCreateManyInput[] {
  const rows: Prisma.ExchangeRateCreateManyInput[] = [];
  for (const s of SERIES) {
    const r = randomFor('exchange-rate', s.base, s.quote);
    const mid = (s.low + s.high) / 2;
    const span = s.high - s.low;
    let value = mid;
    let drift = 0;
    for (let t = RATES_FROM; t <= RATES_TO; t += DAY_MS) {
      // Momentum plus a pull back to the middle keeps the walk smooth and inside the band.
      drift = drift * 0.9 + (r.next() - 0.5) * span * 0.012 + (mid - value) * 0.01;
      value = Math.min(s.high, Math.max(s.low, value + drift));
      rows.push({ base: s.base, quote: s.quote, rateDate: new Date(t), rate: Math.round(value * 1e4) / 1e4 });
    }
  }
  return rows;
}
