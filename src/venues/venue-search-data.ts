// What venue search reads beside Venue's own columns is written by triggers on Venue, never by the application: the
// word lists in each row, VenueSearchWords, VenueSearchTerm, ListedVenueAmenity, VenuePropertyType and
// PublishedVenueCount (prisma/schema.prisma names each table's migration). A write those triggers do not see leaves
// them wrong for good: a restore with `pg_restore --disable-triggers`, a session with `session_replication_role =
// replica`, a trigger disabled by hand. This recomputes each from Venue with the triggers' own functions.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { describeDrift, fixPublishedVenueCounts, underCatalogueLock, type CountDrift } from './published-venue-counts.js';

/** What the reconcile changed in one table. */
export interface TableFix {
  table: string;
  added: number;
  changed: number;
  removed: number;
}

export interface SearchDataReconcile {
  /** The tables it changed, in the order it fixed them; empty when everything was exact. */
  tables: TableFix[];
  /** PublishedVenueCount's rows it fixed, before and after. */
  counts: CountDrift[];
  elapsedMs: number;
}

type Done = Omit<TableFix, 'table'>;
type Fix = { table: string; run: (tx: Prisma.TransactionClient) => Promise<Done> };

/** A fix in one statement that reports (added, changed, removed). */
const statement = (table: string, sql: string): Fix => ({
  table,
  run: async (tx) => (await tx.$queryRawUnsafe<Done[]>(sql))[0],
});

/** The row a fix statement reports, counted from its CTEs named added, changed and removed (those it has). */
const report = (...ctes: Array<keyof Done>) =>
  `SELECT ${(['added', 'changed', 'removed'] as const).map((k) => (ctes.includes(k) ? `(SELECT count(*) FROM ${k})::int AS ${k}` : `0 AS ${k}`)).join(', ')}`;

/** A table its trigger only adds to: the distinct values of `select` it lacks are added. */
const growOnly = (table: string, column: string, select: string): Fix =>
  statement(table, `WITH added AS (INSERT INTO "${table}" (${column}) ${select} ORDER BY 1 ON CONFLICT DO NOTHING RETURNING 1) ${report('added')}`);

/** A venue's name, place and kind words as the BEFORE trigger venue_search_document computes them. */
const HEAD = `"venue_search_head"(name, city, state, "propertyType", "venueType", amenities)`;
/** Its whole document from its head (an expression or a column holding it), as the same trigger computes it. */
const documentOf = (head: string) => `${head} || "venue_search_weighted"(description, 'D')`;

/**
 * The slugs of the Venue rows (those `where` keeps) whose stored words differ from what the trigger computes. Over
 * every venue this is most of a reconcile's time (every description's words), so it runs before the catalogue lock is
 * taken, as a SELECT, which PostgreSQL can spread over parallel workers (an UPDATE never is). OFFSET 0 keeps the
 * subquery whole, so each row's head is computed once, not once per use.
 */
const driftedWords = (where = '') => `
  SELECT slug FROM (SELECT slug, "searchHead" AS stored_head, "searchDocument" AS stored_document, description, ${HEAD} AS head
                      FROM "Venue" ${where} OFFSET 0) h
   WHERE (stored_head, stored_document) IS DISTINCT FROM (head, ${documentOf('head')})`;

/**
 * The words of the rows found drifted (`drifted`), each compared again under the lock: a row a write with its trigger
 * has fixed since is left as it is.
 */
const venueWords = (drifted: string[]): Fix => ({
  table: 'Venue (searchHead, searchDocument)',
  run: async (tx) => {
    if (drifted.length === 0) return { added: 0, changed: 0, removed: 0 };
    const changed = await tx.$executeRawUnsafe(
      `UPDATE "Venue" SET "searchHead" = ${HEAD}, "searchDocument" = ${documentOf(HEAD)}
        WHERE slug IN (${driftedWords('WHERE slug = ANY($1::text[])')})`,
      drifted,
    );
    return { added: 0, changed, removed: 0 };
  },
});

/**
 * In this order because each derives from the one before: the words of each Venue row, then the tables copied from
 * the rows. Only what the triggers write is written: VenueSearchTerm and VenuePropertyType only ever grow (a name no
 * venue uses matches nothing), so only the missing rows are added to them.
 */
const TABLE_FIXES: Fix[] = [
  statement(
    'VenueSearchWords',
    `
      WITH removed AS (
        DELETE FROM "VenueSearchWords" w WHERE NOT EXISTS (SELECT 1 FROM "Venue" v WHERE v.slug = w.slug) RETURNING 1
      ), changed AS (
        UPDATE "VenueSearchWords" w SET published = v.published, "searchHead" = v."searchHead", "searchDocument" = v."searchDocument"
          FROM "Venue" v
         WHERE v.slug = w.slug
           AND (w.published, w."searchHead", w."searchDocument") IS DISTINCT FROM (v.published, v."searchHead", v."searchDocument")
        RETURNING 1
      ), added AS (
        INSERT INTO "VenueSearchWords" (slug, published, "searchHead", "searchDocument")
        SELECT slug, published, "searchHead", "searchDocument" FROM "Venue" v
         WHERE NOT EXISTS (SELECT 1 FROM "VenueSearchWords" w WHERE w.slug = v.slug)
        RETURNING 1
      )
      ${report('added', 'changed', 'removed')}`,
  ),
  growOnly('VenueSearchTerm', 'term', `SELECT DISTINCT t FROM "Venue" v, unnest(tsvector_to_array(v."searchDocument")) t`),
  statement(
    'ListedVenueAmenity',
    `
      WITH expected AS (
        SELECT DISTINCT a AS amenity, v.slug, v.currency, v."startingTotal"
          FROM "Venue" v, unnest(v.amenities) a WHERE v.published AND a IS NOT NULL
      ), removed AS (
        DELETE FROM "ListedVenueAmenity" l
         WHERE NOT EXISTS (SELECT 1 FROM expected e WHERE e.amenity = l.amenity AND e.slug = l.slug)
        RETURNING 1
      ), changed AS (
        UPDATE "ListedVenueAmenity" l SET currency = e.currency, "startingTotal" = e."startingTotal"
          FROM expected e
         WHERE e.amenity = l.amenity AND e.slug = l.slug
           AND (l.currency, l."startingTotal") IS DISTINCT FROM (e.currency, e."startingTotal")
        RETURNING 1
      ), added AS (
        INSERT INTO "ListedVenueAmenity" (amenity, slug, currency, "startingTotal")
        SELECT amenity, slug, currency, "startingTotal" FROM expected e
         WHERE NOT EXISTS (SELECT 1 FROM "ListedVenueAmenity" l WHERE l.amenity = e.amenity AND l.slug = e.slug)
        RETURNING 1
      )
      ${report('added', 'changed', 'removed')}`,
  ),
  growOnly('VenuePropertyType', 'name', `SELECT DISTINCT "propertyType" FROM "Venue" WHERE "propertyType" IS NOT NULL`),
];

/** Thrown to roll back a reconcile that found nothing: its statements must not raise the catalogue generation. */
class NothingToFix extends Error {}

/**
 * Recomputes every table venue search reads from Venue, and returns what it changed. The venues whose words drifted
 * are found first, without a lock; then the fixes run under the catalogue lock (underCatalogueLock), which catalogue
 * writers wait for. A write to any of these tables raises the catalogue generation, which retires the answers computed
 * from the wrong rows on every node; a run that found nothing to fix is rolled back, so it changes nothing, the
 * generation included. A row made wrong while the words are read (by a write no trigger sees) is fixed by the next run.
 *
 * `unlocked` runs between the two: tests write there.
 */
export async function reconcileVenueSearchData(prisma: PrismaClient, unlocked?: () => Promise<void>): Promise<SearchDataReconcile> {
  const started = performance.now();
  let tables: TableFix[] = [];
  let counts: CountDrift[] = [];
  const drifted = (await prisma.$queryRawUnsafe<Array<{ slug: string }>>(driftedWords())).map((row) => row.slug);
  await unlocked?.();
  await underCatalogueLock(prisma, async (tx) => {
    for (const fix of [venueWords(drifted), ...TABLE_FIXES]) {
      const done = await fix.run(tx);
      if (done.added + done.changed + done.removed > 0) tables.push({ table: fix.table, ...done });
    }
    counts = await fixPublishedVenueCounts(tx);
    if (tables.length === 0 && counts.length === 0) throw new NothingToFix();
  }).catch((error: unknown) => {
    if (!(error instanceof NothingToFix)) throw error;
    tables = [];
    counts = [];
  });
  return { tables, counts, elapsedMs: performance.now() - started };
}

/** The fixes as lines for an operator: a line per table it changed, then PublishedVenueCount's drift. */
export function describeSearchDataFix(result: SearchDataReconcile): string[] {
  const lines = result.tables.map((t) => `${t.table}: ${t.added} added, ${t.changed} changed, ${t.removed} removed.`);
  if (result.tables.length === 0) lines.push('Venue words, VenueSearchWords, VenueSearchTerm, ListedVenueAmenity, VenuePropertyType: exact.');
  return [...lines, ...describeDrift({ fixed: result.counts, elapsedMs: result.elapsedMs })];
}
