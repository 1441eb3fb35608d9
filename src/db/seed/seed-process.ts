// The first start's seed (the demo catalogue, the content, then VACUUM ANALYZE), run by the server in a process of its
// own (first-start.ts) on the database the server has opened and migrated. Seeding builds and sends ~40 MB of rows:
// done in the server, it left ~240 MB resident there for good (its heap grown and garbage kept, memory allocator
// arenas that never shrink), RSS 486 MB idle against 250 MB after a restart (docs/operations.md#memory).
import { parseEnv } from '../../config/env.js';
import { seedContent } from '../../content/content.seed.js';
import { openDatabase } from '../client.js';
import { seedCatalogue, settleAfterBulkLoad } from './catalogue.js';

/** Messages to the server over the IPC channel. */
export type SeedProcessMessage = { type: 'progress'; message: string };

// The server decides when seeding stops: a terminal's Ctrl-C reaches the whole group, and the server exits at once
// during start-up (main.ts), which closes our channel.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});
process.on('disconnect', () => process.exit(1));

const env = parseEnv(process.env);
const onProgress = (message: string) => process.send?.({ type: 'progress', message } satisfies SeedProcessMessage);
// The server's own database: its embedded database process (attached to, never started) or DATABASE_URL, migrated.
const db = await openDatabase({
  databaseUrl: env.DATABASE_URL,
  preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
  dataDir: env.DATA_DIR,
  shareEmbedded: true,
  migrate: false,
});
try {
  await seedCatalogue(db.prisma, { onProgress });
  await seedContent(db.prisma, { onProgress });
  // After the content's first load too, so that its tables are settled like the catalogue's (and like the test template).
  await settleAfterBulkLoad(db.prisma);
} finally {
  await db.close();
}
process.exit(0);
