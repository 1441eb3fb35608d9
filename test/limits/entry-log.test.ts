import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { EntryLog } from '../../src/limits/entry-log.js';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { applyToEntries, type LogMode, type LogResult } from '../../src/limits/sliding-log.js';
import { DAY_MS, MINUTE_MS } from '../../src/limits/limits.policy.js';

const T0 = Date.parse('2026-06-01T10:00:00Z');

/**
 * The sliding log as it was written before the typed arrays: one object per entry, members compared as strings; a hit
 * of weight w appends `member`, `member#2` … `member#w`.
 */
function modelApply(
  entries: Array<{ at: number; member: string }>,
  op: { rules: { windowMs: number; limit: number }[]; nowMs: number; mode: LogMode; member: string; weight?: number },
): LogResult {
  const weight = op.weight ?? 1;
  const longest = Math.max(...op.rules.map((r) => r.windowMs));
  while (entries.length && entries[0].at <= op.nowMs - longest) entries.shift();
  if (op.mode === 'refund') {
    const index = entries.findLastIndex((e) => e.member === op.member);
    if (index >= 0) entries.splice(index, 1);
  }
  const countAfter = (t: number) => entries.filter((e) => e.at > t).length;
  const allowed = op.rules.every((r) => countAfter(op.nowMs - r.windowMs) + weight <= r.limit);
  if (op.mode === 'hit' && allowed) {
    const at = entries.findIndex((e) => e.at > op.nowMs);
    const added = Array.from({ length: weight }, (_, n) => ({ at: op.nowMs, member: n === 0 ? op.member : `${op.member}#${n + 1}` }));
    entries.splice(at < 0 ? entries.length : at, 0, ...added);
  }
  return {
    allowed,
    windows: op.rules.map((r) => {
      const inside = entries.filter((e) => e.at > op.nowMs - r.windowMs);
      // After an admitted hit, when one more entry could go in; otherwise when this operation's weight could.
      const mustExpire = allowed && op.mode === 'hit' ? inside.length - r.limit + 1 : inside.length + weight - r.limit;
      return {
        count: inside.length,
        oldestMs: inside.length ? inside[0].at : null,
        freeAtMs: mustExpire > 0 && mustExpire <= inside.length ? inside[mustExpire - 1].at + r.windowMs : null,
      };
    }),
  };
}

describe('EntryLog (an in-memory sliding log in typed arrays)', () => {
  it('answers every sequence of hits (weighted too), peeks and refunds as one object per entry did, across growth, trims and a clock that steps back', () => {
    const rules = [
      { windowMs: MINUTE_MS, limit: 40 },
      { windowMs: DAY_MS, limit: 300 },
    ];
    const step = fc.record({
      // Mostly forward, sometimes far (trims the whole minute or day), sometimes back (an out-of-order insert).
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.constantFrom(MINUTE_MS, DAY_MS - 1, DAY_MS), fc.integer({ min: -5_000, max: -1 })),
      mode: fc.constantFrom<LogMode>('hit', 'hit', 'hit', 'hit', 'peek', 'refund'),
      // Mostly single entries; sometimes a GraphQL answer's venue lookups (up to 100), past what the arrays hold.
      weight: fc.oneof(fc.constant(1), fc.constant(1), fc.integer({ min: 2, max: 100 })),
      // A refund names one of the members hit so far (by how far back) or one never seen.
      back: fc.nat(60),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 700 }), (steps) => {
        const log = new EntryLog();
        const model: Array<{ at: number; member: string }> = [];
        const members: string[] = [];
        let now = T0;
        for (const [n, s] of steps.entries()) {
          now += s.advanceMs;
          const member = s.mode === 'refund' ? (members[members.length - 1 - s.back] ?? 'never-hit') : `m${n}`;
          if (s.mode === 'hit') members.push(member, ...Array.from({ length: s.weight - 1 }, (_, k) => `${member}#${k + 2}`));
          const op = { key: 'k', rules, nowMs: now, mode: s.mode, member, weight: s.weight };
          expect(applyToEntries(log, op), `step ${n}`).toEqual(modelApply(model, op));
          expect(log.length).toBe(model.length);
        }
        expect(Array.from({ length: log.length }, (_, i) => log.timeAt(i))).toEqual(model.map((e) => e.at));
        // Taking back every entry left, newest member first, removes each one's own time.
        for (const member of members.toReversed()) {
          const op = { key: 'k', rules, nowMs: now, mode: 'refund' as const, member };
          expect(applyToEntries(log, op), `refund of ${member}`).toEqual(modelApply(model, op));
          expect(Array.from({ length: log.length }, (_, i) => log.timeAt(i))).toEqual(model.map((e) => e.at));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps every entry when the arrays are compacted or shrunk after the oldest were dropped', () => {
    const log = new EntryLog();
    for (let i = 0; i < 1024; i++) log.insert(log.length, T0 + i, `m${i}`);
    log.dropOldest(824);
    for (let i = 1024; i < 1324; i++) log.insert(log.length, T0 + i, `m${i}`);
    expect(Array.from({ length: log.length }, (_, i) => log.timeAt(i))).toEqual(Array.from({ length: 500 }, (_, i) => T0 + 824 + i));
    expect(log.removeNewest('m824')).toBe(true);
    expect(log.timeAt(0)).toBe(T0 + 825);
  });

  it("tells the limiter's own members apart: a refund of each of 2,000 members of a 100,000-entry log takes its own entry", () => {
    // The members as the limiter makes them (a per-process prefix, then a counter in base 36): tags that collided
    // would take back a newer entry than the refunded one.
    const member = (i: number) => `Zk3_q9Xa:${(1_000_000 + i).toString(36)}`;
    const log = new EntryLog();
    for (let i = 0; i < 100_000; i++) log.insert(log.length, T0 + i, member(i));
    const refunded = new Set(Array.from({ length: 2_000 }, (_, k) => (k * 7_919) % 100_000));
    for (const i of refunded) expect(log.removeNewest(member(i))).toBe(true);
    const kept = Array.from({ length: 100_000 }, (_, i) => i).filter((i) => !refunded.has(i));
    expect(Array.from({ length: log.length }, (_, i) => log.timeAt(i) - T0)).toEqual(kept);
  });

  it('keeps 300,000 entries in order and drops them all when the day has passed', () => {
    const log = new EntryLog();
    for (let i = 0; i < 300_000; i++) log.insert(log.length, T0 + Math.floor(i / 10), `m${i}`);
    expect(log.length).toBe(300_000);
    expect(log.timeAt(0)).toBe(T0);
    expect(log.timeAt(299_999)).toBe(T0 + 29_999);
    expect(log.firstAfter(T0 + 15_000 - 1)).toBe(150_000);
    expect(log.removeNewest('m299999')).toBe(true);
    expect(log.removeNewest('m299999')).toBe(false);
    log.dropOldest(log.firstAfter(T0 + DAY_MS));
    expect(log.length).toBe(0);
  });

  it("keeps a key's entries off the JavaScript heap: 300,000 add under 1 MB to what a full GC walks", async () => {
    // A full GC's work grows with the objects it marks. One object per entry (with its boxed time and member
    // string) made 1.5 million entries ~230 MB of heap and ~300 ms per full GC (docs/performance.md, Levers).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = createMemoryStore();
    const rules = [
      { windowMs: MINUTE_MS, limit: 1_000_000 },
      { windowMs: DAY_MS, limit: 100_000_000 },
    ];
    await store.apply({ key: 'req:k', rules, nowMs: T0, mode: 'hit', member: 'first' });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 300_000; i++)
      await store.apply({ key: 'req:k', rules, nowMs: T0 + Math.floor(i / 4), mode: 'hit', member: `p:${i.toString(36)}` });
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    const peek = await store.apply({ key: 'req:k', rules, nowMs: T0 + 75_000, mode: 'peek', member: 'x' });
    expect(peek.windows[1].count).toBe(300_001);
    expect(grown).toBeLessThan(1_000_000);
  });
});
