import { parseEnv } from './config/env.js';
import { createLogger } from './logging/logger.js';
import { openDatabase, type Database } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { sharedSecret } from './db/secrets.js';
import { catalogueIsEmpty } from './db/seed/catalogue.js';
import { seedInChildProcess } from './db/seed/first-start.js';
import { reconcilePublishedVenueCounts } from './venues/published-venue-counts.js';
import { seedContent } from './content/content.seed.js';
import { countApiKeys, createApiKey } from './auth/api-keys.service.js';
import { createApp } from './app.js';
import { UNREACHABLE_POLICY } from './limits/limits.policy.js';
import { createDispatcher } from './notify/dispatcher.js';
import { createHttpServer } from './http/server.js';
import type { Server } from 'node:http';
import { createMetricsServer } from './observability/metrics.http.js';
import { loadPersistedOperations } from './graphql/persisted-operations.js';
import { packagePath } from './config/paths.js';
import { existsSync } from 'node:fs';
import { releaseClaimsOfPreviousRun, SWEEP_INTERVAL_MS, sweepExpiredIdempotency } from './inquiries/idempotency.js';
import { followCatalogueGeneration } from './cache/catalogue-generation.js';
import { readCatalogueAhead } from './venues/venue-places.js';

const env = parseEnv(process.env);
const log = createLogger({ level: env.LOG_LEVEL });
const started = performance.now();

// The example frontend's manifest is served by default when it is there; a manifest asked for must load (checked
// before the database opens, so a bad path fails in milliseconds).
const manifestPath = env.GRAPHQL_PERSISTED_OPERATIONS ?? packagePath('examples/frontend/generated/persisted-documents.json');
let persistedOperations: ReturnType<typeof loadPersistedOperations> | undefined;
if (env.GRAPHQL_PERSISTED_OPERATIONS || env.GRAPHQL_PERSISTED_ONLY || existsSync(manifestPath)) {
  try {
    persistedOperations = loadPersistedOperations(manifestPath);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
  log.info({ path: manifestPath, operations: persistedOperations.size, only: env.GRAPHQL_PERSISTED_ONLY }, 'persisted GraphQL operations loaded');
}

let db: Database | undefined;
let stopping = false;
/**
 * Until the server listens there is nothing to drain: a signal (or a database process that died for good) during
 * start-up, seeding included, exits at once. Replaced by the draining shutdown below once listening.
 */
let shutdown = async (signal: string, exitCode = 0): Promise<void> => {
  if (stopping) process.exit(1);
  stopping = true;
  log.info({ signal }, 'stopping during start-up');
  // No db.close() here: the seeding still awaiting its queries would fail first and exit 1 with its error. The
  // embedded database process stops by itself when this process goes (it watches its IPC channel), and nothing
  // was acknowledged to any client yet.
  process.exit(exitCode);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  db = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    dataDir: env.DATA_DIR,
    migrate: env.MIGRATE_ON_START,
    onEmbeddedProcessExit: ({ code, signal, restarted, error }) => {
      if (restarted) return log.error({ code, signal }, 'the embedded database process died and was restarted');
      log.fatal({ code, signal, reason: error?.message }, 'the embedded database process died and could not be restarted: stopping');
      process.stderr.write(`The embedded database process stopped (${error?.message ?? `exit ${code ?? signal}`}); the server stops too.\n`);
      void shutdown('database-exit', 1);
    },
  });
  if (!env.MIGRATE_ON_START) log.info('MIGRATE_ON_START=false: migrations are applied by the release step (npm run db:migrate)');
} catch (e) {
  process.stderr.write(`${e instanceof DataDirLockedError ? e.message : `Could not open the database: ${(e as Error).message}`}\n`);
  process.exit(1);
}

if (db.kind === 'pglite') {
  const freed = await releaseClaimsOfPreviousRun({ prisma: db.prisma });
  if (freed) log.warn({ count: freed }, 'freed idempotency claims left in progress by the previous run (it stopped mid-request)');
}

if (await catalogueIsEmpty(db.prisma)) {
  // Catalogue, content and VACUUM ANALYZE, in a process of its own (src/db/seed/seed-process.ts says why).
  log.info('empty catalogue: seeding the demo catalogue (first start)');
  await seedInChildProcess({ onProgress: (message) => log.info(message) });
} else {
  // Knowledge, blog and inspiration follow their files; only what changed is written (embeddings precomputed).
  await seedContent(db.prisma, { onProgress: (message) => log.info(message) });
}
let demoKey: string | undefined;
if ((await countApiKeys(db)) === 0) demoKey = (await createApiKey({ tier: 'pro', name: 'demo' }, db)).key;

// A new generation retires discovery's catalogue reads: those searches were using are read again at once, not by the
// next search.
const generation = await followCatalogueGeneration(db.prisma, log, { onChange: (next) => readCatalogueAhead(db.readRows, next) });
const app = createApp({
  prisma: db.prisma,
  readRows: db.readRows,
  log,
  baseUrl: env.BASE_URL,
  publicSiteUrl: env.PUBLIC_SITE_URL,
  cursorSecret: env.CURSOR_SECRET ?? (await sharedSecret(db.prisma, 'cursor')),
  maxBodyBytes: env.MAX_BODY_BYTES,
  mcpAllowedOrigins: env.MCP_ALLOWED_ORIGINS,
  corsOrigins: env.CORS_ORIGINS,
  metrics: env.METRICS_PORT !== undefined,
  persistedOperations: persistedOperations && { documents: persistedOperations, only: env.GRAPHQL_PERSISTED_ONLY },
  databaseAnswers: () => db.ping(),
  keyLease: { ms: env.API_KEY_LEASE_MS },
  // §8 numbers always (SPEC_POLICY); state in Redis when REDIS_URL is set, shared exactly by every node.
  responseCache: {
    ttlSeconds: env.RESPONSE_CACHE_TTL_SECONDS,
    maxBytes: env.RESPONSE_CACHE_MAX_MB * 1024 * 1024,
    redisUrl: env.REDIS_URL,
  },
  catalogueGeneration: generation.current,
  limiter: { redisUrl: env.REDIS_URL, trustProxy: env.TRUST_PROXY, ...(env.BENCH ? { policy: UNREACHABLE_POLICY } : {}) },
});
// §3: leads reach the team through the outbox, delivered from here (every node polls; rows are taken one node at a time).
const dispatcher = createDispatcher({
  prisma: db.prisma,
  log,
  url: env.NOTIFY_WEBHOOK_URL,
  secret: env.NOTIFY_WEBHOOK_SECRET,
  onAttempt: app.metrics?.webhookAttempt,
});
if (env.NOTIFY_WEBHOOK_URL && !env.NOTIFY_WEBHOOK_SECRET) log.warn('NOTIFY_WEBHOOK_SECRET unset: lead notifications are sent unsigned');
dispatcher.start();
// §4.12 keys are remembered 24 h; expired records are deleted hourly so the table does not grow without bound.
const sweeper = setInterval(() => {
  sweepExpiredIdempotency({ prisma: db.prisma, now: () => new Date() })
    .then((count) => count && log.info({ count }, 'expired idempotency records swept'))
    .catch((err: Error) => log.warn({ err }, 'idempotency sweep failed; will try again'));
}, SWEEP_INTERVAL_MS);
sweeper.unref();
const { server, drain } = createHttpServer(app.requestListener, { log, baseUrl: env.BASE_URL });
let metricsServer: Server | undefined;
if (app.metrics && env.METRICS_PORT !== undefined) {
  app.metrics.observeDatabase(db);
  metricsServer = createMetricsServer(app.metrics.registry, { token: env.METRICS_TOKEN });
  metricsServer.listen(env.METRICS_PORT, env.HOST, () => log.info({ host: env.HOST, port: env.METRICS_PORT }, 'metrics on GET /metrics'));
}
// Totals that writes past the triggers left wrong (a restore, a replica role) are recounted at start. On PostgreSQL
// that happens once serving: it takes longer as the catalogue grows, and a fix waits for catalogue writes in
// progress. The embedded database answers one statement at a time, so there it runs before listening: once serving,
// every request and the health check's ping queued behind it, and a ping past its timeout reported the database down.
const reconcile = () =>
  reconcilePublishedVenueCounts(db.prisma).then(
    (result) =>
      result.fixed.length && log.warn({ rows: result.fixed.length, drift: result.fixed.slice(0, 20) }, 'venue search totals had drifted; fixed'),
    (err: Error) => log.warn({ err }, 'could not check the venue search totals'),
  );
if (db.kind === 'pglite') await reconcile();
server.listen(env.PORT, env.HOST, () => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log.info({ host: env.HOST, port: env.PORT, database: db.kind, seconds }, 'listening');
  if (db.kind !== 'pglite') void reconcile();
  // The demo key is printed once, to the terminal only (it is never logged and only its hash is stored).
  const lines = [
    `Wedding Discovery API ready in ${seconds} s (${db.kind}).`,
    `  REST:    ${env.BASE_URL}/api/v1  (OpenAPI: ${env.BASE_URL}/api/v1/openapi.json)`,
    `  GraphQL: ${env.BASE_URL}/graphql (GraphiQL in a browser)`,
    `  MCP:     ${env.BASE_URL}/mcp (keyless assistant tools; npm run -s mcp for stdio)`,
    `  Pages:   ${env.BASE_URL}/venues (public venue pages${env.PUBLIC_SITE_URL ? `; links name ${env.PUBLIC_SITE_URL}` : ''})`,
    ...(env.BENCH ? ['  BENCH=1: rate limits are lifted for benchmarking. Never run a public server like this.'] : []),
    demoKey ? `  Demo API key (pro tier, shown once): ${demoKey}` : '  Create a key: npm run -s keys -- create --tier free',
  ];
  // Human output goes to stderr: stdout carries the JSON log stream only.
  process.stderr.write(`${lines.join('\n')}\n`);
});

/**
 * SIGTERM/SIGINT: stop accepting, let every in-flight request finish (inquiries included), then stop the dispatcher,
 * the limiter and the database, and exit 0. A second signal, or a drain that cannot finish, exits at once with 1.
 */
shutdown = async (signal: string, exitCode = 0) => {
  if (stopping) {
    log.warn({ signal }, 'second signal while draining: exiting now');
    process.exit(1);
  }
  stopping = true;
  log.info({ signal }, 'draining');
  const force = setTimeout(() => {
    log.error('shutdown did not finish in 20 s; exiting');
    process.exit(1);
  }, 20_000);
  force.unref();
  await drain();
  metricsServer?.close();
  clearInterval(sweeper);
  generation.stop();
  await dispatcher.stop();
  await app.close();
  await db.close();
  log.info('stopped');
  process.exit(exitCode);
};
