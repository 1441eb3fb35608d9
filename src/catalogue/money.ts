const GROUPED = new Intl.NumberFormat('en-US');

/**
 * 12,345: what toLocaleString('en-US') writes. A whole amount (every stored price, every rounded estimate) is grouped
 * by a regular expression: toLocaleString builds an ICU formatter per call, and one made once was still 1.5 % of a
 * 20-venue search's CPU; a fraction goes to the formatter.
 */
export const groupedAmount = (n: number): string =>
  Number.isSafeInteger(n) && !Object.is(n, -0) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : GROUPED.format(n);

/** $12,345: a USD amount as the pricing texts write it. */
export const usdText = (n: number): string => `$${groupedAmount(n)}`;
