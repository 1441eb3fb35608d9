import type { LogOperation, LogResult, SlidingLogStore } from './sliding-log.js';

/**
 * A circuit breaker around the shared store. A hung Redis (SIGSTOP, a full network buffer) does not refuse
 * connections: every command waits out the command timeout, so without a breaker every request would pay it.
 * After `failureThreshold` consecutive failures the breaker opens: calls fail at once with BreakerOpenError and the
 * limit's failure policy applies immediately (reads fall back to per-node memory, inquiries answer 503). After
 * `openMs` it lets one probe through (half-open): success closes it, failure opens it for another `openMs`.
 *
 *   closed --(N consecutive failures)--> open --(openMs elapsed)--> half-open --(probe ok)--> closed
 *                                          ^------------------------(probe fails)-------------'
 */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures (timeouts, connection errors) that open the breaker. @default 3 */
  failureThreshold?: number;
  /** How long the breaker stays open before one probe is let through, milliseconds. @default 5000 */
  openMs?: number;
  /** The limiter's clock, Unix milliseconds (tests inject one). */
  nowMs: () => number;
  /** Told of every state change (logged; metrics read `state`). */
  onStateChange?: (state: BreakerState, cause?: unknown) => void;
}

export class BreakerOpenError extends Error {
  /** What a log line names it by (src/logging/logged-error.ts), as Node's and ioredis's errors carry theirs. */
  readonly code = 'BREAKER_OPEN';

  constructor() {
    super('Redis circuit breaker is open');
    this.name = 'BreakerOpenError';
  }
}

export interface Breaker {
  /** The breaker's state now (for /metrics and tests). */
  readonly state: BreakerState;
  /** Runs one call to the guarded service, or throws BreakerOpenError at once while the breaker is open. */
  run<T>(call: () => Promise<T>): Promise<T>;
}

/** The breaker itself, around any calls to one service (the limiter's store, the response cache's Redis). */
export function createBreaker(options: BreakerOptions): Breaker {
  const threshold = options.failureThreshold ?? 3;
  const openMs = options.openMs ?? 5000;
  let state: BreakerState = 'closed';
  let failures = 0;
  let openedAt = 0;
  /** The single call let through while half-open; others fail fast until it settles. */
  let probing = false;

  const move = (next: BreakerState, cause?: unknown) => {
    if (next === state) return;
    state = next;
    options.onStateChange?.(next, cause);
  };

  const fail = (cause: unknown) => {
    failures++;
    if (state === 'half-open' || failures >= threshold) {
      openedAt = options.nowMs();
      move('open', cause);
    }
  };

  return {
    get state() {
      return state;
    },
    async run<T>(call: () => Promise<T>): Promise<T> {
      if (state === 'open') {
        if (options.nowMs() - openedAt < openMs) throw new BreakerOpenError();
        move('half-open');
      }
      const probe = state === 'half-open';
      if (probe) {
        if (probing) throw new BreakerOpenError();
        probing = true;
      }
      try {
        const result = await call();
        // A late answer to a call made before the breaker opened proves little; only a probe (or a closed breaker) resets.
        if (probe || state === 'closed') {
          failures = 0;
          move('closed');
        }
        return result;
      } catch (error) {
        if (probe || state === 'closed') fail(error);
        throw error;
      } finally {
        if (probe) probing = false;
      }
    },
  };
}

export interface BreakerStore extends SlidingLogStore {
  /** The breaker's state now (for /metrics and tests). */
  readonly state: BreakerState;
}

export function withBreaker(inner: SlidingLogStore, options: BreakerOptions): BreakerStore {
  const breaker = createBreaker(options);
  return {
    kind: inner.kind,
    get state() {
      return breaker.state;
    },
    apply: (operation: LogOperation): Promise<LogResult> => breaker.run(() => inner.apply(operation)),
    close: () => inner.close(),
  };
}
