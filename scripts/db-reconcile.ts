// npm run db:reconcile
// Recomputes what the triggers on Venue keep for venue search (the words of each row, VenueSearchWords,
// VenueSearchDocument, VenueSearchTerm, ListedVenueAmenity, VenuePropertyType, PublishedVenueCount:
// src/venues/venue-search-data.ts) and prints what it fixed, on DATABASE_URL or the embedded database in DATA_DIR
// (beside a running server, through its database process; migrating as needed, as the keys command does). Run it
// after writes its triggers did not see: a `pg_restore --disable-triggers`, a replica-role session.
import { openDatabase } from '../src/db/client.js';
import { DataDirLockedError } from '../src/db/data-dir-lock.js';
import { describeSearchDataFix, reconcileVenueSearchData } from '../src/venues/venue-search-data.js';

async function main(): Promise<number> {
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || '.data',
    shareEmbedded: true,
  });
  try {
    const result = await reconcileVenueSearchData(db.prisma);
    process.stdout.write(`${describeSearchDataFix(result).join('\n')}\n(${db.kind}, ${Math.round(result.elapsedMs)} ms)\n`);
    return 0;
  } finally {
    await db.close();
  }
}

// Exit explicitly, as the other database scripts do: nothing left behind may hold the process open.
process.exit(
  await main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof DataDirLockedError ? e.message : `db:reconcile: ${(e as Error).message}`}\n`);
    return 1;
  }),
);
