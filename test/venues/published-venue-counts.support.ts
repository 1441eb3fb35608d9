import type { PrismaClient } from '../../src/generated/prisma/client.js';
import type { Database } from '../../src/db/client.js';
import { followCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { createLogger } from '../../src/logging/logger.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';

export type Counted = { amenity: string; otherAmenity: string; venues: number };

/**
 * Published venues by pair of distinct amenities (in the database's order), and all of them under ('', ''), counted
 * from Venue itself: written independently of the triggers' key function and of the reconcile's query.
 */
export function countedFromVenues(prisma: PrismaClient): Promise<Counted[]> {
  return prisma.$queryRawUnsafe<Counted[]>(`
    SELECT a.x AS amenity, b.x AS "otherAmenity", count(DISTINCT v.id)::int AS venues
      FROM "Venue" v, unnest(v.amenities) a(x), unnest(v.amenities) b(x) WHERE v.published AND a.x < b.x GROUP BY 1, 2
    UNION ALL SELECT '', '', count(*)::int FROM "Venue" WHERE published
    ORDER BY 1, 2`);
}

/** PublishedVenueCount's rows, less pairs whose venues have all gone (a count of 0 is kept, and is exact). */
export function countedInTable(prisma: PrismaClient): Promise<Counted[]> {
  return prisma.$queryRawUnsafe<Counted[]>(
    `SELECT amenity, "otherAmenity", venues FROM "PublishedVenueCount" WHERE venues <> 0 OR amenity = '' ORDER BY 1, 2`,
  );
}

/**
 * A test app on its own database whose answers are cached (300 s) and retired when the catalogue generation moves,
 * which it follows every 10 ms (a node: every 5 s).
 */
export async function followingTestApp(): Promise<{ t: TestApp; followed: CatalogueGeneration; close: () => Promise<void> }> {
  const db = await createTestDatabase();
  const followed = await followCatalogueGeneration(db.prisma, createLogger({ level: 'silent' }), { intervalMs: 10 });
  const t = await createTestApp({ database: db, responseCache: { ttlSeconds: 300 }, catalogueGeneration: followed.current });
  return {
    t,
    followed,
    close: async () => {
      await t.close();
      followed.stop();
      await db.close();
    },
  };
}

/** How many times `run` took the catalogue writers' lock (underCatalogueLock's statement), and what it returned. */
export async function catalogueLocksTaken<T>(db: Database, run: () => Promise<T>): Promise<{ locks: number; result: T }> {
  let locks = 0;
  const stop = db.onQuery((event) => {
    if (/FROM "CatalogueState" WHERE id = 1 FOR UPDATE/.test(event.query)) locks++;
  });
  try {
    const result = await run();
    return { locks, result };
  } finally {
    stop();
  }
}
