import { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  url: string;
  /** Prepended to every key, so several deployments (or parallel test files) can share one Redis. */
  keyPrefix: string;
  /** A command that takes longer fails. Milliseconds. @default 500 */
  commandTimeoutMs?: number;
  /** How long the first commands wait for the initial connection before failing. Milliseconds. @default 2000 */
  connectTimeoutMs?: number;
  /** Connection trouble, reported at most once per outage. */
  onConnectionError?: (error: Error) => void;
}

export interface RedisConnection {
  redis: Redis;
  /** Resolves once the first connection is made (or its wait has run out); await it before a command. */
  firstConnection: () => Promise<void> | null;
  close: () => Promise<void>;
}

/**
 * A Redis connection that fails fast when Redis is away: no offline queue (a command while disconnected throws at once
 * instead of hanging) and a command timeout; ioredis keeps reconnecting in the background. Used by the limiter's store
 * and the response cache, each behind its own circuit breaker.
 */
export function connectRedis(options: RedisConnectionOptions): RedisConnection {
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? 500,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    keyPrefix: options.keyPrefix,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) options.onConnectionError?.(error);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  // Without an offline queue the very first commands would fail while the connection is still being made.
  let first: Promise<void> | null = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      first = null;
      resolve();
    };
    const timer = setTimeout(done, options.connectTimeoutMs ?? 2000);
    timer.unref();
    redis.once('ready', done);
  });
  return {
    redis,
    firstConnection: () => first,
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
