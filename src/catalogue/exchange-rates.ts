import type { PrismaClient } from '../generated/prisma/client.js';

export interface DayRate {
  rate: number;
  /** YYYY-MM-DD */
  rateDate: string;
}

/** How long a looked-up day's rate is reused. A rate published for today is picked up within this time. */
const REUSE_MS = 10 * 60 * 1000;

/**
 * The day's rate for a pair such as "USD:AUD": the newest rate dated on or before today (by the injected clock).
 * Rates change at most daily, so each process keeps the answer for a while instead of asking on every request:
 * a page showing Australian venues costs no extra SQL statement.
 */
export function createDayRates(deps: { prisma: PrismaClient; now: () => Date }): (pair: string) => Promise<DayRate | null> {
  const remembered = new Map<string, { value: Promise<DayRate | null>; until: number }>();
  return (pair) => {
    const now = deps.now();
    const today = now.toISOString().slice(0, 10);
    const key = `${pair}@${today}`;
    const hit = remembered.get(key);
    if (hit && hit.until > now.getTime()) return hit.value;
    const [base, quote] = pair.split(':');
    const value = deps.prisma.exchangeRate
      .findFirst({ where: { base, quote, rateDate: { lte: new Date(today) } }, orderBy: { rateDate: 'desc' } })
      .then((row) => (row ? { rate: row.rate, rateDate: row.rateDate.toISOString().slice(0, 10) } : null));
    // A failed read is not remembered: the next request asks again.
    value.catch(() => remembered.delete(key));
    if (remembered.size > 100) remembered.clear();
    remembered.set(key, { value, until: now.getTime() + REUSE_MS });
    return value;
  };
}
