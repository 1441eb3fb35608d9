import type { EntryLog } from './entry-log.js';
import type { WindowRule } from './limits.policy.js';

/**
 * The algorithm: an exact sliding log. Each limited thing (a key's reads, its venue lookups, an IP) has one log of
 * timestamps; a log carries one or more rolling windows (reads: the last 60 s and the last 24 h over the same log).
 * An entry at t counts while now − t < window, so it frees its slot at exactly t + window (§8.1: no fixed resets).
 * A hit trims entries older than the longest window, counts each window, and appends only if every window allows it,
 * all in one atomic step; a refused hit leaves the log untouched, so hammering after a 429 costs nothing.
 */
export type LogMode =
  /** Check every window and append the entry only if all allow it. */
  | 'hit'
  /** Report the windows without changing the log. */
  | 'peek'
  /** Take back an entry appended by an earlier hit (a request answered 429 after it was admitted). */
  | 'refund';

export interface LogOperation {
  /** Store key of the log (the store adds its own prefix). */
  key: string;
  rules: WindowRule[];
  /** The injected clock, Unix milliseconds. */
  nowMs: number;
  mode: LogMode;
  /** Unique id of the entry a hit appends or a refund removes. */
  member: string;
  /**
   * Entries one hit appends, all or none (a GraphQL answer reading the details of several venues is that many venue
   * detail lookups, §8 row 3). They are `member`, then `member#2` … `member#N`. @default 1
   */
  weight?: number;
}

/** One window of a log after the operation. */
export interface WindowState {
  /** Entries inside the window. */
  count: number;
  /** Oldest entry inside the window, Unix ms; its expiry (oldestMs + windowMs) frees the next slot. */
  oldestMs: number | null;
  /** When the window is full: the Unix ms from which a hit would pass this window again. */
  freeAtMs: number | null;
}

export interface LogResult {
  /** hit: the entry was appended. peek/refund: a hit now would pass. */
  allowed: boolean;
  /** In the order of `rules`. */
  windows: WindowState[];
}

/** Where logs live: one process (memory-store.ts) or shared by every node (redis-store.ts). Each apply is atomic. */
export interface SlidingLogStore {
  readonly kind: 'memory' | 'redis';
  apply(operation: LogOperation): Promise<LogResult>;
  close(): Promise<void>;
}

/**
 * The sliding log over one in-memory log, the same steps as the Redis Lua script. Synchronous, so in one process
 * it is atomic by construction: no await between the check and the append.
 */
export function applyToEntries(entries: EntryLog, op: LogOperation): LogResult {
  const longest = Math.max(...op.rules.map((r) => r.windowMs));
  const expired = entries.firstAfter(op.nowMs - longest);
  if (expired > 0) entries.dropOldest(expired);
  if (op.mode === 'refund') entries.removeNewest(op.member);
  const weight = op.weight ?? 1;
  const starts = op.rules.map((r) => entries.firstAfter(op.nowMs - r.windowMs));
  const allowed = op.rules.every((r, i) => entries.length - starts[i] + weight <= r.limit);
  if (op.mode === 'hit' && allowed) {
    const at = entries.firstAfter(op.nowMs);
    entries.insert(at, op.nowMs, op.member, weight);
    for (let i = 0; i < starts.length; i++) if (starts[i] > at) starts[i] = at;
  }
  const windows = op.rules.map((r, i): WindowState => {
    const count = entries.length - starts[i];
    // A refused hit of weight w passes once count + w − limit entries have expired: the last of them frees it.
    const mustExpire = allowed && op.mode === 'hit' ? count - r.limit + 1 : count + weight - r.limit;
    return {
      count,
      oldestMs: count > 0 ? entries.timeAt(starts[i]) : null,
      freeAtMs: mustExpire > 0 && mustExpire <= count ? entries.timeAt(starts[i] + mustExpire - 1) + r.windowMs : null,
    };
  });
  return { allowed, windows };
}
