import { z } from 'zod';

/** An origin with an optional path that links can continue with `/venues/…`: no credentials, query or fragment. */
function isSiteUrl(text: string): boolean {
  if (!URL.canParse(text) || /[?#]/.test(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
}

/** The service's whole configuration, parsed once at boot (main.ts) from the environment. */
const EnvFields = z.object({
  /** TCP port of the HTTP server. @default 4000 */
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** Interface to listen on. 127.0.0.1 keeps a laptop's server private; containers set 0.0.0.0 (or ::). @default 127.0.0.1 */
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Apply pending migrations when the server starts (under a PostgreSQL advisory lock, so nodes starting together
   * apply them once). false: deployments run `npm run db:migrate` as a release step. @default true
   */
  MIGRATE_ON_START: z
    .enum(['0', '1', 'true', 'false'])
    .default('true')
    .transform((v) => v === '1' || v === 'true'),
  /** Embedded PGlite data directory, used when DATABASE_URL is unset. @default ./.data */
  DATA_DIR: z.string().min(1).default('.data'),
  /** postgres://… switches from the embedded database to PostgreSQL. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  /**
   * With DATABASE_URL: 1/true runs the statements whose plan cannot depend on their values (unique-key lookups, curated
   * content, the driver's reads) as named prepared statements, planned once per connection. false for a pooler in
   * transaction mode that cannot carry them (PgBouncer before 1.21).
   * @default true
   */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['0', '1', 'true', 'false'])
    .default('true')
    .transform((v) => v === '1' || v === 'true'),
  /** redis://… moves limiter state into Redis, shared by every node (idempotency records live in the database). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional(),
  /**
   * Seconds a shared catalogue read's answer is kept and served again (X-Cache: HIT), 0 to 300 (§8.10's 5 minutes is
   * the most). 0 turns the response cache off. In this process, or in Redis (shared by every node) when REDIS_URL is set.
   * @default 300
   */
  RESPONSE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(300).default(300),
  /**
   * How long a node trusts an API key's row once read, milliseconds (src/auth/key-lease.ts): a busy key is looked up
   * about once per lease instead of on every request. `npm run -s keys -- revoke` waits this long after its commit, so
   * a revoked key is refused from the next request once the command returns; it must be given the nodes' value. 0:
   * every request reads its key. @default 1000
   */
  API_KEY_LEASE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** Bound of the in-process response cache, MiB of JSON (least recently used answers go first). @default 64 */
  RESPONSE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /**
   * 1/true: one trusted reverse proxy appends the client address to X-Forwarded-For, and keyless limits (§8.4)
   * count by that address. Unset: they count by the TCP peer address (X-Forwarded-For is ignored, a client could forge it).
   * @default false
   */
  TRUST_PROXY: z
    .enum(['0', '1', 'true', 'false'])
    .default('false')
    .transform((v) => v === '1' || v === 'true'),
  /** Public origin used in absolute URLs (doc_url, venue url). @default http://localhost:{PORT} */
  BASE_URL: z.string().url().optional(),
  /**
   * Where the public pages the API links to live, for an operator whose own site shows them: venue, vendor and blog
   * `url`s, inspiration sources and the `source_url` of benchmarks and regional ranges start with it. This service
   * still serves its own pages (docs/pages.md); doc_url and the developer pages stay on BASE_URL. An absolute http(s)
   * URL, a path allowed, no query or fragment; a trailing slash is dropped. @default BASE_URL
   */
  PUBLIC_SITE_URL: z
    .string()
    .refine(isSiteUrl, 'PUBLIC_SITE_URL must be an absolute http:// or https:// URL without credentials, query or fragment')
    .optional(),
  /** Signs pagination cursors. When unset, a secret generated once and stored in the database is shared by all nodes. */
  CURSOR_SECRET: z.string().min(32).optional(),
  /** pino level. @default info */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Benchmarks only (npm run bench), never production: lifts the §8 rate limits so a load test measures the service,
   * not the limiter's refusals. The server prints a warning when it is on. @default 0
   */
  BENCH: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  /** Where every new lead is POSTed (signed JSON, retried until accepted, §3). Unset: each lead is logged instead. */
  NOTIFY_WEBHOOK_URL: z.string().url().optional(),
  /**
   * Signing secret of lead notifications (Standard Webhooks): `whsec_` + base64 of at least 24 random bytes, e.g.
   * `whsec_$(openssl rand -base64 32)`. Receivers verify webhook-signature with it.
   */
  NOTIFY_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'NOTIFY_WEBHOOK_SECRET must be whsec_ followed by base64 of at least 24 bytes')
    .optional(),
  /** Largest accepted request body, bytes. @default 65536 */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /**
   * Comma-separated origins (https://app.example) whose browser pages may call /mcp, besides this service's own.
   * A request carrying any other Origin is refused (DNS-rebinding protection). @default none
   */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /** Comma-separated browser origins allowed to call the API (CORS). @default any origin (keys travel in headers, no credentials) */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /**
   * The persisted operations manifest (graphql-codegen's persisted-documents.json, `{"sha256:<hex>": "<document>"}`):
   * GraphQL clients may send `extensions.persistedQuery.sha256Hash` instead of a document. Read once at start; a
   * missing or inconsistent file stops the server when set (or when GRAPHQL_PERSISTED_ONLY is on).
   * @default examples/frontend/generated/persisted-documents.json (when it exists)
   */
  GRAPHQL_PERSISTED_OPERATIONS: z.string().min(1).optional(),
  /**
   * 1/true: GraphQL runs only the manifest's operations; a document sent as text is refused with persisted_query_only
   * (introspection excepted). For production deployments whose clients are all built from the manifest. @default false
   */
  GRAPHQL_PERSISTED_ONLY: z
    .enum(['0', '1', 'true', 'false'])
    .default('false')
    .transform((v) => v === '1' || v === 'true'),
  /** `npm run mcp`: a server's /mcp to forward to (stdio bridge) instead of running the tools in process. */
  MCP_SERVER_URL: z.string().url().optional(),
  /** Serve Prometheus metrics at GET /metrics on this port (on HOST), apart from the API. Unset: no metrics. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** When set, /metrics requires `Authorization: Bearer <METRICS_TOKEN>` (a port reachable by more than the scraper). */
  METRICS_TOKEN: z.string().min(16).optional(),
});

const EnvSchema = EnvFields.refine((env) => env.METRICS_PORT === undefined || env.METRICS_PORT !== env.PORT, {
  // Both servers on one port: the second listen would fail with EADDRINUSE, far from the setting that caused it.
  path: ['METRICS_PORT'],
  message: 'METRICS_PORT must differ from PORT (metrics are served apart from the API)',
});

export type Env = z.infer<typeof EnvSchema> & { BASE_URL: string };

/** API_KEY_LEASE_MS alone, as the keys CLI reads it (it must wait the nodes' lease, and needs nothing else). */
export function apiKeyLeaseMs(source: NodeJS.ProcessEnv): number {
  return EnvFields.shape.API_KEY_LEASE_MS.parse(source.API_KEY_LEASE_MS);
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const env = parsed.data;
  return {
    ...env,
    BASE_URL: (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    PUBLIC_SITE_URL: env.PUBLIC_SITE_URL?.replace(/\/+$/, ''),
  };
}
