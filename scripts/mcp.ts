// `npm run -s mcp`: the keyless assistant tools over stdio for desktop assistants (docs/assistant.md).
// Where the tools run, in this order:
// 1. MCP_SERVER_URL set: forwarded to that server's /mcp.
// 2. Otherwise an in-process app: on PostgreSQL when DATABASE_URL is set, else on the embedded database, through the
//    running server's database process when there is one (or a database process of its own).
// stdout carries the protocol only; messages go to stderr.
import { parseEnv } from '../src/config/env.js';
import { createApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { sharedSecret } from '../src/db/secrets.js';
import { createLogger } from '../src/logging/logger.js';
import { serveStdioBridge } from '../src/mcp/mcp.stdio.js';

const env = parseEnv(process.env);
const say = (line: string) => process.stderr.write(`[mcp] ${line}\n`);
const log = createLogger({ level: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL, destination: process.stderr });

let db: Database | null = null;
try {
  const remote = env.MCP_SERVER_URL ?? null;
  db = remote ? null : await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, shareEmbedded: true });
  let bridge: { close: () => Promise<void> };
  if (db) {
    const local = db;
    const app = createApp({
      prisma: local.prisma,
      readRows: local.readRows,
      log,
      baseUrl: env.BASE_URL,
      publicSiteUrl: env.PUBLIC_SITE_URL,
      cursorSecret: env.CURSOR_SECRET ?? (await sharedSecret(local.prisma, 'cursor')),
      limiter: { redisUrl: env.REDIS_URL },
    });
    say(`tools run in this process on ${local.kind === 'postgres' ? 'PostgreSQL' : `the embedded database in ${env.DATA_DIR}`}`);
    bridge = await serveStdioBridge({ url: 'http://stdio.local/mcp', fetch: (input, init) => app.fetch(new Request(input, init)) });
  } else {
    say(`forwarding to ${remote}`);
    bridge = await serveStdioBridge({ url: remote as string });
  }
  const stop = async () => {
    await bridge.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
} catch (error) {
  say(`could not start: ${(error as Error).message}`);
  await db?.close().catch(() => undefined);
  process.exit(1);
}
