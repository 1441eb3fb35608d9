import { EntryLog } from './entry-log.js';
import { applyToEntries, type LogOperation, type LogResult, type SlidingLogStore } from './sliding-log.js';

/** Read by peeks and refunds of absent logs, never written: with no entries, applyToEntries has nothing to drop or remove. */
const NO_ENTRIES = new EntryLog();

/** Operations between two sweeps of idle logs (an IP seen once must not stay in memory forever). */
const SWEEP_EVERY = 10_000;

/**
 * Logs in this process (REDIS_URL unset, and the fallback while Redis is unreachable). Same algorithm as Redis,
 * exact for one node: every apply runs synchronously, so concurrent requests cannot interleave a check and an append.
 */
export function createMemoryStore(): SlidingLogStore {
  const logs = new Map<string, { entries: EntryLog; expiresAt: number }>();
  let operations = 0;

  function sweep(nowMs: number) {
    for (const [key, log] of logs) if (log.expiresAt <= nowMs) logs.delete(key);
  }

  return {
    kind: 'memory',
    apply(op: LogOperation): Promise<LogResult> {
      if (++operations % SWEEP_EVERY === 0) sweep(op.nowMs);
      let log = logs.get(op.key);
      if (!log) {
        // A peek or refund of a log that does not exist changes nothing: one empty log serves them all (every valid
        // key's request peeks its IP's failed-key log, which is nearly always absent).
        if (op.mode !== 'hit') return Promise.resolve(applyToEntries(NO_ENTRIES, op));
        log = { entries: new EntryLog(), expiresAt: 0 };
        logs.set(op.key, log);
      }
      const result = applyToEntries(log.entries, op);
      if (log.entries.length === 0) logs.delete(op.key);
      else log.expiresAt = log.entries.timeAt(log.entries.length - 1) + Math.max(...op.rules.map((r) => r.windowMs));
      return Promise.resolve(result);
    },
    close: () => Promise.resolve(),
  };
}
