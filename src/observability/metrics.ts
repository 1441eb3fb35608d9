// Prometheus metrics (prom-client) of one app: requests by surface, route and status; limiter decisions and the
// Redis breaker; database statements and pool; the notification outbox. One registry per app, so tests with several apps in
// one process never share counters; served on METRICS_PORT by metrics.http.ts, never on the API port.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isSitePath } from '../site/site.paths.js';

export type MetricsSurface = 'rest' | 'graphql' | 'mcp' | 'pages' | 'health' | 'other';

export interface RequestObservation {
  surface: MetricsSurface;
  /** A REST route template (`/api/v1/venues/{slug}`), a GraphQL operation name, or the surface's path: never a raw path. */
  route: string;
  method: string;
  status: number;
  seconds: number;
}

export interface Metrics {
  registry: Registry;
  observeRequest(observation: RequestObservation): void;
  /** One limiter check: which limit (requests, keyless, venue_details…), its outcome, and which store answered. */
  limiterDecision(limit: string, allowed: boolean, store: 'shared' | 'fallback'): void;
  /** Times every statement the database runs and reports its pool when scraped; returns the unsubscribe function. */
  observeDatabase(database: ObservedDatabase): () => void;
  /** One lead notification attempt: delivered to the webhook, failed (retried later), or only logged (no webhook). */
  webhookAttempt(outcome: 'delivered' | 'failed' | 'logged'): void;
}

/** What the metrics read of the database (db/client.ts Database), without depending on the driver. */
export interface ObservedDatabase {
  onQuery(listener: (event: { durationMs: number }) => void): () => void;
  poolStats(): { open: number; idle: number; waiting: number; max: number };
}

export interface MetricsSources {
  /** The limiter store: 'memory', or the Redis breaker's state. */
  limiterStoreState: () => string;
  /** Notifications not delivered yet (read at scrape time). */
  outboxBacklog: () => Promise<number>;
}

/** GraphQL operation names are chosen by clients: past this many distinct ones, further names count as "other". */
const MAX_OPERATION_NAMES = 200;
const LIMITER_STORE_STATES = ['memory', 'closed', 'open', 'half-open'];

/** Long because it declares every metric the service exports, each with its help text, in one registry. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by surface, route or GraphQL operation, method and status.',
    labelNames: ['surface', 'route', 'method', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response headers, by surface, route or GraphQL operation, method and status.',
    labelNames: ['surface', 'route', 'method', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'rate_limit_decisions_total',
    help: 'Limiter checks, by limit, outcome (allowed or refused) and the store that answered (shared, or the per-node fallback).',
    labelNames: ['limit', 'outcome', 'store'],
    registers: [registry],
  });
  new Gauge({
    name: 'rate_limit_store_state',
    help: 'Where limiter state lives: 1 for the current state (memory; or the Redis breaker closed, open or half-open).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = sources.limiterStoreState();
      for (const state of LIMITER_STORE_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  const queries = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'SQL statements as Prisma ran them (each statement of a request, transaction or migration).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  /** Pool gauges exist once a database is observed: a zero pool would read as an outage. */
  const addPoolGauges = (database: ObservedDatabase) => {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections between Prisma and the database, by state (in_use by a query or transaction, idle).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { open, idle } = database.poolStats();
        this.set({ state: 'in_use' }, open - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_queries',
      help: 'Queries waiting for a connection because every pooled one is in use.',
      registers: [registry],
      collect() {
        this.set(database.poolStats().waiting);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'The pool size limit (DATABASE_URL: 2 × CPUs + 1; embedded database: 4).',
      registers: [registry],
      collect() {
        this.set(database.poolStats().max);
      },
    });
  };
  let observingDatabase = false;

  new Gauge({
    name: 'notification_outbox_backlog',
    help: 'Lead notifications not delivered yet (read from the outbox when scraped).',
    registers: [registry],
    async collect() {
      this.set(await sources.outboxBacklog().catch(() => NaN));
    },
  });
  const webhooks = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Lead notification attempts: delivered, failed (retried with backoff) or logged (no NOTIFY_WEBHOOK_URL).',
    labelNames: ['outcome'],
    registers: [registry],
  });

  const operationNames = new Set<string>();
  const boundedRoute = (surface: MetricsSurface, route: string) => {
    if (surface !== 'graphql' || operationNames.has(route)) return route;
    if (operationNames.size >= MAX_OPERATION_NAMES) return 'other';
    operationNames.add(route);
    return route;
  };

  return {
    registry,
    observeRequest({ surface, route, method, status, seconds }) {
      const labels = { surface, route: boundedRoute(surface, route), method, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    limiterDecision(limit, allowed, store) {
      decisions.inc({ limit, outcome: allowed ? 'allowed' : 'refused', store });
    },
    observeDatabase(database) {
      // One database per app, once: a second subscription would count each statement twice.
      if (observingDatabase) throw new Error('metrics already observe a database');
      observingDatabase = true;
      addPoolGauges(database);
      return database.onQuery((event) => queries.observe(event.durationMs / 1000));
    },
    webhookAttempt(outcome) {
      webhooks.inc({ outcome });
    },
  };
}

/** The surface a path belongs to. */
export function surfaceOf(path: string): MetricsSurface {
  if (path.startsWith('/api/v1/')) return 'rest';
  if (path === '/graphql') return 'graphql';
  if (path === '/mcp') return 'mcp';
  if (path === '/developers' || path.startsWith('/developers/') || isSitePath(path)) return 'pages';
  if (path === '/healthz') return 'health';
  return 'other';
}
