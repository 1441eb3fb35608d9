import type { Logger } from '../logging/logger.js';
import { withBreaker, type BreakerOptions, type BreakerState } from './breaker.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import type { SlidingLogStore } from './sliding-log.js';

export interface LimiterStoreOptions {
  /** redis://… shares every log between nodes; unset keeps them in this process. */
  redisUrl?: string;
  keyPrefix?: string;
  /** Redis command timeout, milliseconds. @default 500 */
  commandTimeoutMs?: number;
  /** Circuit breaker around Redis (breaker.ts). @default 3 failures, 5000 ms open */
  breaker?: Pick<BreakerOptions, 'failureThreshold' | 'openMs'>;
}

export interface LimiterStore {
  store: SlidingLogStore;
  /** 'memory' without Redis; else the Redis breaker's state (exported as a metric). */
  state: () => BreakerState | 'memory';
}

/** The limiter's store: memory, or Redis behind a circuit breaker that runs on the limiter's clock. */
export function createLimiterStore(options: LimiterStoreOptions, deps: { log: Logger; now: () => Date }): LimiterStore {
  if (!options.redisUrl) return { store: createMemoryStore(), state: () => 'memory' };
  const redis = createRedisStore({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix,
    commandTimeoutMs: options.commandTimeoutMs,
    onConnectionError: (err) => deps.log.warn({ err }, 'limiter: Redis connection error'),
  });
  const store = withBreaker(redis, {
    ...options.breaker,
    nowMs: () => deps.now().getTime(),
    onStateChange: (state, cause) => {
      if (state === 'open') deps.log.warn({ err: cause }, 'limiter: Redis circuit breaker open; limits fall back until a probe succeeds');
      else deps.log.info({ state }, `limiter: Redis circuit breaker ${state}`);
    },
  });
  return { store, state: () => store.state };
}
