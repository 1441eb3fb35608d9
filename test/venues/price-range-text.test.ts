import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { priceRangeText, type VenuePricing } from '../../src/venues/venue-pricing.js';

const pricing = (weekdayBase: number | null, weekendBase: number | null, currency = 'USD', minNights = 2) =>
  ({ currency, minNights, weekdayBase, weekendBase }) as VenuePricing;

// §2.2 price_range groups amounts as en-US does; the whole amounts take a fast path (src/catalogue/money.ts).
describe('price_range text', () => {
  it('writes each amount as toLocaleString("en-US") would, whole or not', () => {
    const amount = fc.oneof(
      fc.integer({ min: -1e12, max: 1e12 }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }),
      fc.constantFrom(0, -0, 999, 1000, 2 ** 53 - 1),
    );
    fc.assert(
      fc.property(amount, (n) => {
        expect(priceRangeText(pricing(n, null))).toBe(`$${n.toLocaleString('en-US')} for 2 nights, before fees`);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('gives a range in the venue currency, and null without a base', () => {
    expect(priceRangeText(pricing(12500, 1234567, 'EUR', 1))).toBe('€12,500–€1,234,567 for 1 night, before fees');
    expect(priceRangeText(pricing(3000, 3000, 'AUD'))).toBe('A$3,000 for 2 nights, before fees');
    expect(priceRangeText(pricing(null, null))).toBeNull();
  });
});
