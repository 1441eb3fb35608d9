import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupedAmount, usdText } from '../../src/catalogue/money.js';

// Every amount text of the API (price_range, the pricing estimate's texts, regional ranges, the assistant's lines) is
// written as toLocaleString('en-US') writes it, without building an ICU formatter per call.
describe('amount texts', () => {
  const amount = fc.oneof(
    fc.integer({ min: -1e12, max: 1e12 }),
    fc.double({ min: -1e9, max: 1e9, noNaN: true }),
    fc.constantFrom(0, -0, 999, 1000, 2 ** 53 - 1, 2 ** 53, 1e21, 0.5, 1234.5678),
  );

  it('groups any number as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(amount, (n) => {
        expect(groupedAmount(n)).toBe(n.toLocaleString('en-US'));
        expect(usdText(n)).toBe(`$${n.toLocaleString('en-US')}`);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
  });

  it('writes the pricing texts’ amounts', () => {
    expect(usdText(48_720)).toBe('$48,720');
    expect(usdText(999)).toBe('$999');
    expect(groupedAmount(1_234_567)).toBe('1,234,567');
  });
});
