import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { createRedisStore } from '../../src/limits/redis-store.js';
import type { SlidingLogStore } from '../../src/limits/sliding-log.js';
import { DAY_MS, MINUTE_MS } from '../../src/limits/limits.policy.js';
import { uniqueKeyPrefix } from '../support/app.js';

const T0 = Date.parse('2026-06-01T10:00:00Z');
const BURST = [{ windowMs: MINUTE_MS, limit: 10 }];
const READS = [
  { windowMs: MINUTE_MS, limit: 10 },
  { windowMs: DAY_MS, limit: 100 },
];
let member = 0;
const hit = (store: SlidingLogStore, key: string, nowMs: number, rules = BURST) =>
  store.apply({ key, rules, nowMs, mode: 'hit', member: `m${++member}` });

const stores: [string, () => SlidingLogStore][] = [['memory', () => createMemoryStore()]];
if (process.env.TEST_REDIS_URL) stores.push(['redis', () => createRedisStore({ url: process.env.TEST_REDIS_URL!, keyPrefix: uniqueKeyPrefix() })]);

describe.each(stores)('sliding log on %s', (_name, make) => {
  let store: SlidingLogStore;
  beforeAll(() => {
    store = make();
  });
  afterAll(() => store.close());

  it('the 61st second frees the oldest burst slot, not a minute boundary', async () => {
    for (let i = 0; i < 10; i++) expect((await hit(store, 'burst', T0 + i * 1000)).allowed).toBe(true);
    const refused = await hit(store, 'burst', T0 + 59_999);
    expect(refused.allowed).toBe(false);
    expect(refused.windows[0]).toEqual({ count: 10, oldestMs: T0, freeAtMs: T0 + MINUTE_MS });
    const freed = await hit(store, 'burst', T0 + 60_000);
    expect(freed.allowed).toBe(true);
    expect(freed.windows[0].count).toBe(10);
    // Only one slot freed: the second request at 60 s waits for the entry made at 1 s.
    const next = await hit(store, 'burst', T0 + 60_500);
    expect(next.allowed).toBe(false);
    expect(next.windows[0].freeAtMs).toBe(T0 + 61_000);
  });

  it('the 24th hour frees the oldest daily slot, with the burst window checked over the same log', async () => {
    for (let i = 0; i < 100; i++) expect((await hit(store, 'daily', T0 + i * 10 * MINUTE_MS, READS)).allowed, `request ${i}`).toBe(true);
    const refused = await hit(store, 'daily', T0 + DAY_MS - 1, READS);
    expect(refused.allowed).toBe(false);
    expect(refused.windows[1]).toMatchObject({ count: 100, freeAtMs: T0 + DAY_MS });
    expect((await hit(store, 'daily', T0 + DAY_MS, READS)).allowed).toBe(true);
    expect((await hit(store, 'daily', T0 + DAY_MS + 1, READS)).allowed).toBe(false);
  });

  it('a refused hit adds nothing; a refund gives the slot back; peek changes nothing', async () => {
    for (let i = 0; i < 10; i++) await hit(store, 'refund', T0);
    for (let i = 0; i < 5; i++) expect((await hit(store, 'refund', T0 + 1000)).allowed).toBe(false);
    const peek = await store.apply({ key: 'refund', rules: BURST, nowMs: T0 + 1000, mode: 'peek', member: 'x' });
    expect(peek).toMatchObject({ allowed: false, windows: [{ count: 10 }] });
    const ok = await store.apply({ key: 'refund', rules: BURST, nowMs: T0 + 60_000, mode: 'hit', member: 'kept' });
    expect(ok.allowed).toBe(true);
    const back = await store.apply({ key: 'refund', rules: BURST, nowMs: T0 + 60_000, mode: 'refund', member: 'kept' });
    expect(back.windows[0].count).toBe(0);
  });

  it('a weighted hit appends all its entries or none, and says when it would pass', async () => {
    const DETAILS = [{ windowMs: DAY_MS, limit: 20 }];
    const weighted = (nowMs: number, weight: number, mode: 'hit' | 'peek' = 'hit') =>
      store.apply({ key: 'weighted', rules: DETAILS, nowMs, mode, member: `w${++member}`, weight });
    expect(await weighted(T0, 12)).toMatchObject({ allowed: true, windows: [{ count: 12, oldestMs: T0, freeAtMs: null }] });
    expect(await weighted(T0 + 1000, 5)).toMatchObject({ allowed: true, windows: [{ count: 17 }] });
    // 17 + 4 would pass 20: refused whole, nothing appended; it passes once 1 entry has expired (the first 12 at T0).
    const refused = await weighted(T0 + 2000, 4);
    expect(refused).toMatchObject({ allowed: false, windows: [{ count: 17, freeAtMs: T0 + DAY_MS }] });
    // 9 needs 6 to expire: the 6th oldest is still one of T0's.
    expect((await weighted(T0 + 2000, 9, 'peek')).windows[0].freeAtMs).toBe(T0 + DAY_MS);
    // 16 needs 13 to expire: the 13th oldest is the first of T0 + 1000's.
    expect((await weighted(T0 + 2000, 16, 'peek')).windows[0].freeAtMs).toBe(T0 + 1000 + DAY_MS);
    expect(await weighted(T0 + 2000, 3)).toMatchObject({ allowed: true, windows: [{ count: 20, freeAtMs: T0 + DAY_MS }] });
    // More than the whole window never passes.
    expect((await weighted(T0 + DAY_MS + 2000, 21)).allowed).toBe(false);
    expect((await weighted(T0 + DAY_MS + 2000, 20)).allowed).toBe(true);
  });

  it('50 concurrent hits at a limit of 10 let exactly 10 through', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => hit(store, 'race', T0)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });
});
