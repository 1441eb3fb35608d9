import type { RequestListener } from 'node:http';
import type { PrismaClient } from './generated/prisma/client.js';
import type { RowReader } from './db/row-reader.js';
import type { Logger } from './logging/logger.js';
import type { PersistedOperations } from './graphql/persisted-operations.js';
import type { LimitsPolicy } from './limits/limits.policy.js';
import type { BreakerOptions, BreakerState } from './limits/breaker.js';
import type { KeyLeaseOptions } from './auth/key-lease.js';
import type { ResponseCacheOptions } from './cache/response-cache.js';
import type { Metrics } from './observability/metrics.js';

/** What createApp (src/app.ts) takes and gives. */

export interface AppOptions {
  prisma: PrismaClient;
  /** The driver-level reader of the same database (Database.readRows): the key lookup, aggregates, gallery, blog posts. */
  readRows: RowReader;
  log: Logger;
  /** Public origin, no trailing slash. */
  baseUrl: string;
  /**
   * Where the public pages links point (PUBLIC_SITE_URL): venue, vendor and blog `url`s, inspiration sources and
   * `sourceUrl`s. The service serves its own pages either way (src/site/). No trailing slash. @default baseUrl
   */
  publicSiteUrl?: string;
  /** HMAC secret for pagination cursors; every node of a deployment must share it. */
  cursorSecret: string;
  /** Injected clock. @default () => new Date() */
  now?: () => Date;
  /** Largest request body in bytes. @default 65536 */
  maxBodyBytes?: number;
  /** Answers GET /healthz. */
  databaseAnswers?: () => Promise<boolean>;
  /** Rate limits (§8). @default the spec's numbers, kept in this process */
  limiter?: LimiterOptions;
  /** Origins allowed to call /mcp from a browser besides the service's own (DNS-rebinding protection). @default [] */
  mcpAllowedOrigins?: string[];
  /** Browser origins allowed to call the API (CORS). @default [] (any origin, no credentials) */
  corsOrigins?: string[];
  /** Keep Prometheus metrics (app.metrics; served on METRICS_PORT by main.ts). @default false */
  metrics?: boolean;
  /** GraphQL operations clients may send by hash, and whether only those run. @default none (documents as text only) */
  persistedOperations?: PersistedOperations;
  /**
   * How long a key's row, once read, is trusted (src/auth/key-lease.ts); the keys CLI must wait as long before it
   * reports a revocation. @default none (every request reads its key)
   */
  keyLease?: KeyLeaseOptions;
  /**
   * The catalogue's generation (src/cache/catalogue-generation.ts; main.ts follows the database's): cached answers and
   * the day's exchange rates are read under it. @default () => 0
   */
  catalogueGeneration?: () => number;
  /** Answers of shared catalogue reads, kept up to ttlSeconds (src/cache/response-cache.ts). @default none */
  responseCache?: Omit<ResponseCacheOptions, 'now' | 'log' | 'generation'>;
}

export interface LimiterOptions {
  /** redis://… keeps every log in Redis, shared exactly by all nodes; unset keeps them in this process. */
  redisUrl?: string;
  /** Prefix of every Redis key (separate deployments or test apps on one Redis). @default 'wv:rl:' */
  keyPrefix?: string;
  /** The numbers. Only tests change them; the server always runs SPEC_POLICY. @default SPEC_POLICY */
  policy?: LimitsPolicy;
  /** Take the client IP for keyless limits from X-Forwarded-For (behind one trusted proxy). @default false */
  trustProxy?: boolean;
  /** Redis command timeout, milliseconds. @default 500 */
  commandTimeoutMs?: number;
  /** Circuit breaker around Redis. @default 3 consecutive failures open it for 5000 ms */
  breaker?: Pick<BreakerOptions, 'failureThreshold' | 'openMs'>;
}

export interface App {
  /** In-process Fetch API entry point (tests, graphql-http audits). */
  fetch: (request: Request) => Promise<Response>;
  /** node:http's request listener: every request through the one ingress (src/http/ingress.ts). */
  requestListener: RequestListener;
  /** 'memory', or the state of the circuit breaker in front of Redis (metrics, tests). */
  limiterStoreState: () => BreakerState | 'memory';
  /** The response cache's store: 'memory', the Redis breaker's state, or 'off'. */
  responseCacheState: () => BreakerState | 'memory' | 'off';
  /** Prometheus metrics, when AppOptions.metrics asked for them. */
  metrics?: Metrics;
  /** Releases the limiter's Redis connection. */
  close: () => Promise<void>;
}
