import { Writable } from 'node:stream';
import { createLogger } from '../logging/logger.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import { checkRequest, createLimits } from './limits.service.js';
import { SPEC_POLICY } from './limits.policy.js';
import type { SlidingLogStore } from './sliding-log.js';

/** Latency one limiter check adds to a request, microseconds. */
export interface LimiterOverhead {
  store: 'memory' | 'redis';
  checks: number;
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

/**
 * For `npm run bench`: times checkRequest (one check-and-count, what every API request pays) on memory and, when
 * redisUrl is given, on Redis (one Lua script round trip). Pro-tier windows; keys rotate so checks are admitted.
 */
export async function measureLimiterOverhead(options: { redisUrl?: string; checks?: number } = {}): Promise<LimiterOverhead[]> {
  const checks = options.checks ?? 5000;
  const log = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, done) => done() }) });
  const stores: SlidingLogStore[] = [createMemoryStore()];
  if (options.redisUrl) stores.push(createRedisStore({ url: options.redisUrl, keyPrefix: `wv:bench:${process.pid}:` }));
  const results: LimiterOverhead[] = [];
  for (const store of stores) {
    const deps = { limits: createLimits({ policy: SPEC_POLICY, store, fallback: createMemoryStore(), log }), now: () => new Date() };
    const times: number[] = [];
    for (let i = 0; i < checks; i++) {
      const identity = { id: `bench-${i % 1000}`, prefix: 'wv_live_bench000', tier: 'pro' as const };
      const started = performance.now();
      await checkRequest(identity, deps);
      times.push((performance.now() - started) * 1000);
    }
    await store.close();
    times.sort((a, b) => a - b);
    const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
    results.push({ store: store.kind, checks, meanUs: Math.round(times.reduce((a, b) => a + b, 0) / times.length), p50Us: at(0.5), p99Us: at(0.99) });
  }
  return results;
}
