import { describe, expect, it } from 'vitest';
import { abSummary } from '../../bench/ab-summary.js';
import { median } from '../../bench/report.js';

const round = (oldRps: number, newRps: number, oldCpu: number | null = 100, newCpu: number | null = 90) => ({
  old: { rps: oldRps, cpuMicrosPerRequest: oldCpu },
  new: { rps: newRps, cpuMicrosPerRequest: newCpu },
});

describe('bench:ab arithmetic', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('takes each round’s new ÷ old, then their median, so a slow spell moves both sides of one ratio', () => {
    // Round 2 ran in a spell at half speed: its ratio is still 1.2, where a ratio of medians would mix the spells.
    const summary = abSummary([round(1000, 1200), round(500, 600), round(1000, 1100, 100, 80)]);
    expect(summary.rps).toBeCloseTo(1.2);
    expect(summary.cpuPerRequest).toBeCloseTo(0.9);
    expect(summary.rpsRange[0]).toBeCloseTo(1.1);
    expect(summary.rpsRange[1]).toBeCloseTo(1.2);
  });

  it('gives no CPU ratio when a round could not read /proc', () => {
    expect(abSummary([round(1000, 1200), round(1000, 1200, null, 90)]).cpuPerRequest).toBeNull();
  });
});
