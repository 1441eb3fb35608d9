import { createServer } from 'node:http';
import { parseEnv } from './config/env.js';
import { createLogger } from './logging/logger.js';
import { openDatabase, type Database } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { sharedSecret } from './db/secrets.js';
import { catalogueIsEmpty, seedCatalogue } from './db/seed/catalogue.js';
import { seedContent } from './content/content.seed.js';
import { countApiKeys, createApiKey } from './auth/api-keys.service.js';
import { createApp } from './app.js';
import { UNREACHABLE_POLICY } from './limits/limits.policy.js';
import { createDispatcher } from './notify/dispatcher.js';

const env = parseEnv(process.env);
const log = createLogger({ level: env.LOG_LEVEL });
const started = performance.now();

let db: Database;
try {
  db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
} catch (e) {
  process.stderr.write(`${e instanceof DataDirLockedError ? e.message : `Could not open the database: ${(e as Error).message}`}\n`);
  process.exit(1);
}

if (await catalogueIsEmpty(db.prisma)) {
  log.info('empty catalogue: seeding the demo catalogue (first start)');
  await seedCatalogue(db.prisma, { onProgress: (message) => log.info(message) });
  await db.prisma.$executeRawUnsafe('ANALYZE'); // planner statistics for the freshly loaded tables
}
// Knowledge, blog and inspiration follow their files; only what changed is written (embeddings precomputed).
await seedContent(db.prisma, { onProgress: (message) => log.info(message) });
let demoKey: string | undefined;
if ((await countApiKeys(db)) === 0) demoKey = (await createApiKey({ tier: 'pro', name: 'demo' }, db)).key;

const app = createApp({
  prisma: db.prisma,
  log,
  baseUrl: env.BASE_URL,
  cursorSecret: env.CURSOR_SECRET ?? (await sharedSecret(db.prisma, 'cursor')),
  maxBodyBytes: env.MAX_BODY_BYTES,
  databaseAnswers: () => db.ping(),
  // §8 numbers always (SPEC_POLICY); state in Redis when REDIS_URL is set, shared exactly by every node.
  limiter: { redisUrl: env.REDIS_URL, trustProxy: env.TRUST_PROXY, ...(env.BENCH ? { policy: UNREACHABLE_POLICY } : {}) },
});
// §3: leads reach the team through the outbox, delivered from here (every node polls; rows are taken one node at a time).
const dispatcher = createDispatcher({ prisma: db.prisma, log, url: env.NOTIFY_WEBHOOK_URL, secret: env.NOTIFY_WEBHOOK_SECRET });
if (env.NOTIFY_WEBHOOK_URL && !env.NOTIFY_WEBHOOK_SECRET) log.warn('NOTIFY_WEBHOOK_SECRET unset: lead notifications are sent unsigned');
dispatcher.start();
const server = createServer(app.requestListener);
server.listen(env.PORT, () => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log.info({ port: env.PORT, database: db.kind, seconds }, 'listening');
  // The demo key is printed once, to the terminal only (it is never logged and only its hash is stored).
  const lines = [
    `Wedding Discovery API ready in ${seconds} s (${db.kind}).`,
    `  REST:    ${env.BASE_URL}/api/v1  (OpenAPI: ${env.BASE_URL}/api/v1/openapi.json)`,
    `  GraphQL: ${env.BASE_URL}/graphql (GraphiQL in a browser)`,
    ...(env.BENCH ? ['  BENCH=1: rate limits are lifted for benchmarking. Never run a public server like this.'] : []),
    demoKey ? `  Demo API key (pro tier, shown once): ${demoKey}` : '  Create a key: npm run -s keys -- create --tier free',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database cleanly. */
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'draining');
  const force = setTimeout(() => {
    log.error('in-flight requests did not finish in 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  server.close(async () => {
    await dispatcher.stop();
    await app.close();
    await db.close();
    log.info('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
