// PublishedVenueCount (schema.prisma) is kept by statement triggers on Venue (migration published_venue_counts). A
// write those triggers do not see leaves it wrong for good: a restore with `pg_restore --disable-triggers`, a session
// with `session_replication_role = replica`, a trigger disabled by hand. This recomputes it from Venue.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** One row the reconcile set: `before` null when the row was missing. ('', '') counts every published venue. */
export interface CountDrift {
  amenity: string;
  otherAmenity: string;
  before: number | null;
  after: number;
}

export interface CountReconcile {
  /** The rows that were wrong, now right, in key order; empty when the table was exact. */
  fixed: CountDrift[];
  elapsedMs: number;
}

/**
 * Each key's count from Venue, beside the table's row, where they differ. Computed with the trigger's own key function;
 * ('', '') is always expected (a search reads it), and a row whose venues are gone is expected at 0, as the triggers
 * leave it.
 */
const DRIFT = `
  WITH expected AS (
    SELECT amenity, "otherAmenity", sum(venues)::int AS venues FROM (
      SELECT k."amenity", k."otherAmenity", count(*) AS venues
        FROM "Venue" v, "published_venue_count_keys"(v."amenities") k WHERE v."published" GROUP BY 1, 2
      UNION ALL SELECT '', '', 0
    ) counted GROUP BY 1, 2
  )
  SELECT coalesce(e.amenity, c.amenity) AS amenity, coalesce(e."otherAmenity", c."otherAmenity") AS "otherAmenity",
         c.venues AS before, coalesce(e.venues, 0) AS after
    FROM expected e FULL JOIN "PublishedVenueCount" c ON c.amenity = e.amenity AND c."otherAmenity" = e."otherAmenity"
   WHERE c.venues IS DISTINCT FROM coalesce(e.venues, 0)
   ORDER BY 1, 2`;

/** The keys whose count differs from Venue's, in key order: a read, which needs no lock. */
export function findCountDrift(client: Prisma.TransactionClient | PrismaClient): Promise<CountDrift[]> {
  return client.$queryRawUnsafe<CountDrift[]>(DRIFT);
}

/** Writes each key's count where it differs from Venue's, in a transaction that holds the catalogue lock. */
export async function fixPublishedVenueCounts(tx: Prisma.TransactionClient): Promise<CountDrift[]> {
  const drift = await findCountDrift(tx);
  if (drift.length === 0) return drift;
  await tx.$executeRawUnsafe(
    `INSERT INTO "PublishedVenueCount" AS c ("amenity", "otherAmenity", "venues")
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[]) ORDER BY 1, 2
     ON CONFLICT ("amenity", "otherAmenity") DO UPDATE SET "venues" = EXCLUDED."venues"`,
    drift.map((d) => d.amenity),
    drift.map((d) => d.otherAmenity),
    drift.map((d) => d.after),
  );
  return drift;
}

/**
 * Runs a reconcile in one transaction that first takes the CatalogueState row's lock, which every catalogue writer
 * takes before its first write (migration catalogue_generation_triggers): no venue write is in flight while it reads
 * the venues, and none can commit between its read and its fix.
 */
export function underCatalogueLock<T>(prisma: PrismaClient, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT 1 FROM "CatalogueState" WHERE id = 1 FOR UPDATE`);
      return work(tx);
    },
    // The lock waits out a catalogue write in progress (a seed's), and a reconcile reads every venue.
    { maxWait: 60_000, timeout: 10 * 60_000 },
  );
}

/**
 * Recomputes PublishedVenueCount and returns what it changed: the check each start makes (the whole reconcile of what
 * search reads is src/venues/venue-search-data.ts, `npm run db:reconcile`). The counts are compared first with a read;
 * only when one drifted is the catalogue lock taken, the counts compared again under it and fixed, so a start with
 * nothing to fix makes catalogue writers wait for nothing and changes nothing, the catalogue generation included. A fix
 * raises the generation, which retires the answers computed from the wrong counts.
 */
export async function reconcilePublishedVenueCounts(prisma: PrismaClient): Promise<CountReconcile> {
  const started = performance.now();
  const found = await findCountDrift(prisma);
  const fixed = found.length === 0 ? found : await underCatalogueLock(prisma, fixPublishedVenueCounts);
  return { fixed, elapsedMs: performance.now() - started };
}

/** The drift as lines for an operator: at most `limit` rows, in key order (the every-venue row sorts first). */
export function describeDrift(result: CountReconcile, limit = 20): string[] {
  const { fixed } = result;
  if (fixed.length === 0) return ['PublishedVenueCount: exact, nothing changed.'];
  const name = (d: CountDrift) => (d.amenity === '' ? 'every published venue' : `${d.amenity} + ${d.otherAmenity}`);
  const lines = [`PublishedVenueCount: fixed ${fixed.length} row(s), before -> after:`];
  for (const d of fixed.slice(0, limit)) lines.push(`  ${name(d)}: ${d.before ?? 'missing'} -> ${d.after}`);
  if (fixed.length > limit) lines.push(`  … and ${fixed.length - limit} more`);
  return lines;
}
