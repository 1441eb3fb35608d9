/**
 * The venue pricing object (§2.1), computed from stored columns. Amounts are whole units of the venue's currency;
 * Australian venues store USD and are shown in AUD, converted at the day's rate and rounded up to the nearest 100.
 */

export interface VenuePriceColumns {
  currency: string;
  minNights: number;
  weekdayBase: number | null;
  weekendBase: number | null;
  extraNight: number | null;
  startingTotal: number | null;
}

import type { DayRate } from '../catalogue/exchange-rates.js';
import { groupedAmount } from '../catalogue/money.js';
export type { DayRate };

export interface StartingTotal {
  amount: number;
  nights: number;
  rate: 'weekday' | 'weekend';
  includesFees: boolean;
}

export interface VenuePricing {
  priceUnit: 'per_stay';
  currency: string;
  minNights: number;
  weekdayBase: number | null;
  weekendBase: number | null;
  extraNight: number | null;
  startingTotal: StartingTotal | null;
  rateDate: string | null;
}

/** The currencies a venue's prices are shown in (§2.1). */
export const VENUE_CURRENCIES = ['USD', 'EUR', 'AUD'] as const;

/** Currencies whose amounts are stored in another currency and converted when read. */
export const STORED_AS: Record<string, { stored: string; roundUpTo: number }> = {
  AUD: { stored: 'USD', roundUpTo: 100 },
};

/** USD → AUD exactly as §2.1 says: at the day's rate, rounded up to the nearest 100. */
export function convertStoredAmount(amount: number, rate: number, roundUpTo: number): number {
  // The epsilon keeps an exact product (e.g. 1000 × 1.5 = 1500.0000000002) from rounding up a whole step.
  return Math.ceil((amount * rate) / roundUpTo - 1e-9) * roundUpTo;
}

export function venuePricing(v: VenuePriceColumns, dayRate: DayRate | null): VenuePricing {
  const conversion = STORED_AS[v.currency];
  const show = (amount: number | null) =>
    amount === null || !conversion || !dayRate ? amount : convertStoredAmount(amount, dayRate.rate, conversion.roundUpTo);
  const starting = show(v.startingTotal);
  return {
    priceUnit: 'per_stay',
    currency: v.currency,
    minNights: v.minNights,
    weekdayBase: show(v.weekdayBase),
    weekendBase: show(v.weekendBase),
    extraNight: show(v.extraNight),
    startingTotal: starting === null ? null : { amount: starting, nights: v.minNights, rate: 'weekday', includesFees: true },
    rateDate: conversion && dayRate ? dayRate.rateDate : null,
  };
}

const SYMBOL: Record<string, string> = { USD: '$', EUR: '€', AUD: 'A$' };

/** An amount in a venue's currency as price_range writes it: $12,345, €8,000, A$5,400. */
export const moneyText = (amount: number, currency: string): string => `${SYMBOL[currency] ?? `${currency} `}${groupedAmount(amount)}`;

/** §2.2 price_range: the base for the whole minimum stay, before fees, in the venue's currency. */
export function priceRangeText(p: VenuePricing): string | null {
  const bases = [p.weekdayBase, p.weekendBase].filter((n): n is number => n !== null);
  if (!bases.length) return null;
  const money = (n: number) => moneyText(n, p.currency);
  const low = Math.min(...bases);
  const high = Math.max(...bases);
  const nights = `${p.minNights} night${p.minNights === 1 ? '' : 's'}`;
  return `${low === high ? money(low) : `${money(low)}–${money(high)}`} for ${nights}, before fees`;
}

/**
 * The smallest and largest stored amount whose displayed (converted) amount lies within [min, max], so a price
 * filter on converted venues can run in SQL on the stored column. Exact for the conversion above.
 */
export function storedBoundsFor(bounds: { min?: number; max?: number }, rate: number, roundUpTo: number): { gte?: number; lte?: number } {
  const shown = (x: number) => convertStoredAmount(x, rate, roundUpTo);
  const out: { gte?: number; lte?: number } = {};
  if (bounds.min !== undefined) {
    let x = Math.max(0, Math.floor((bounds.min - roundUpTo) / rate) - 2);
    while (shown(x) < bounds.min) x++;
    out.gte = x;
  }
  if (bounds.max !== undefined) {
    let x = Math.max(0, Math.floor(bounds.max / rate) + 2);
    while (x >= 0 && shown(x) > bounds.max) x--;
    out.lte = x;
  }
  return out;
}
