import type { PrismaClient } from '../generated/prisma/client.js';

export interface DayRate {
  rate: number;
  /** YYYY-MM-DD */
  rateDate: string;
}

/**
 * How long a looked-up day's rate is reused under one catalogue generation, milliseconds. A new rate row raises the
 * generation, which drops every remembered rate at once; this bound only matters for a write that raised nothing
 * (triggers disabled, a replica-role session), which is then picked up within it.
 */
const REUSE_MS = 10 * 60 * 1000;

export interface DayRatesDeps {
  prisma: PrismaClient;
  now: () => Date;
  /** The catalogue's generation as this node last read it (src/cache/catalogue-generation.ts). @default () => 0 */
  generation?: () => number;
}

/**
 * The day's rate for a pair such as "USD:AUD": the newest rate dated on or before today (by the injected clock).
 * Rates change at most daily, so each process keeps the answer for a while instead of asking on every request:
 * a page showing Australian venues costs no extra SQL statement. What is kept belongs to the generation it was read
 * under, as the response cache's answers do: a node converts with a new rate as soon as it sees the generation the
 * rate's write raised.
 */
export function createDayRates(deps: DayRatesDeps): (pair: string) => Promise<DayRate | null> {
  const generation = deps.generation ?? (() => 0);
  const remembered = new Map<string, { value: Promise<DayRate | null>; until: number }>();
  let readUnder = generation();
  return (pair) => {
    const now = deps.now();
    if (generation() !== readUnder) {
      readUnder = generation();
      remembered.clear();
    }
    const today = now.toISOString().slice(0, 10);
    const key = `${pair}@${today}`;
    const hit = remembered.get(key);
    if (hit && hit.until > now.getTime()) return hit.value;
    const [base, quote] = pair.split(':');
    const value = deps.prisma.exchangeRate
      .findFirst({ where: { base, quote, rateDate: { lte: new Date(today) } }, orderBy: { rateDate: 'desc' } })
      .then((row) => (row ? { rate: row.rate, rateDate: row.rateDate.toISOString().slice(0, 10) } : null));
    // A failed read is not remembered: the next request asks again.
    value.catch(() => remembered.get(key)?.value === value && remembered.delete(key));
    if (remembered.size > 100) remembered.clear();
    remembered.set(key, { value, until: now.getTime() + REUSE_MS });
    return value;
  };
}
