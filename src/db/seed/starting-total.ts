// The venue page's starts-at figure (§2.1 starting_total): the minimum stay at the weekday rate with cleaning,
// service fee and tax included. The seed stores it and the API may recompute it, so both use this function.
//
//   subtotal       = weekdayBase + cleaningFee
//   serviceFee     = subtotal × serviceFeePercent / 100
//   tax            = subtotal × taxPercent / 100        (tax is charged on the subtotal, not on the service fee)
//   startingTotal  = round(subtotal + serviceFee + tax)  (half rounds up; whole units of the stored currency)
//
// The seed only uses percentages in steps of 0.5, so subtotal × (100 + fee + tax) is an exact integer and the
// rounding never depends on floating-point noise.

export interface StartingTotalInput {
  /** Weekday base for the whole minimum stay, whole units of the stored currency. */
  weekdayBase: number;
  /** One-off cleaning fee, same units; null counts as 0. */
  cleaningFee: number | null;
  /** Percent of the subtotal, e.g. 10 for 10 %; null counts as 0. */
  serviceFeePercent: number | null;
  /** Percent of the subtotal, e.g. 12.5; null counts as 0. */
  taxPercent: number | null;
}

/** Starts-at total in whole units of the stored currency (for AUD venues: USD, converted when read). */
export function startingTotalOf(input: StartingTotalInput): number {
  const subtotal = input.weekdayBase + (input.cleaningFee ?? 0);
  const percent = 100 + (input.serviceFeePercent ?? 0) + (input.taxPercent ?? 0);
  return Math.round((subtotal * percent) / 100);
}
