/** The arithmetic of `npm run bench:ab` (bench/ab.ts), apart so it can be tested without servers. */
import { median } from './report.js';

/** One round: each server's closed-loop run, back to back. */
export interface AbRound {
  old: { rps: number; cpuMicrosPerRequest: number | null };
  new: { rps: number; cpuMicrosPerRequest: number | null };
}

export interface AbSummary {
  /** Median over the rounds of new ÷ old req/s. */
  rps: number;
  /** Median over the rounds of new ÷ old CPU µs per request; null without /proc. */
  cpuPerRequest: number | null;
  /** The lowest and highest round's req/s ratio: how far one round can be trusted. */
  rpsRange: [number, number];
}

/**
 * Ratios are taken round by round, then their median: a round pairs two runs made seconds apart, so a slow spell of
 * the host moves both sides of one ratio, where the ratio of two medians would mix spells.
 */
export function abSummary(rounds: AbRound[]): AbSummary {
  const rpsRatios = rounds.map((r) => r.new.rps / r.old.rps);
  const cpuRatios = rounds.flatMap((r) =>
    r.new.cpuMicrosPerRequest !== null && r.old.cpuMicrosPerRequest !== null ? [r.new.cpuMicrosPerRequest / r.old.cpuMicrosPerRequest] : [],
  );
  return {
    rps: median(rpsRatios),
    cpuPerRequest: cpuRatios.length === rounds.length ? median(cpuRatios) : null,
    rpsRange: [Math.min(...rpsRatios), Math.max(...rpsRatios)],
  };
}
