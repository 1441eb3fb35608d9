// What venue search reads beside Venue's own columns is written by triggers on Venue, never by the application: the
// word lists in each row, VenueSearchWords, VenueSearchDocument, VenueSearchTerm, ListedVenueAmenity,
// VenuePropertyType and PublishedVenueCount (prisma/schema.prisma names each table's migration). A write those
// triggers do not see leaves them wrong for good: a restore with `pg_restore --disable-triggers`, a session with
// `session_replication_role = replica`, a trigger disabled by hand. This recomputes each from Venue with the
// triggers' own functions.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { describeDrift, findCountDrift, fixPublishedVenueCounts, underCatalogueLock, type CountDrift } from './published-venue-counts.js';

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

/** The row a fix statement reports, counted from its CTEs named added, changed and removed (those it has). */
const report = (...ctes: Array<keyof Done>) =>
  `SELECT ${(['added', 'changed', 'removed'] as const).map((k) => (ctes.includes(k) ? `(SELECT count(*) FROM ${k})::int AS ${k}` : `0 AS ${k}`)).join(', ')}`;

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
 * The words of the rows found drifted, each compared again under the lock (a row a write with its trigger has fixed
 * since is left as it is). The triggers this update fires rewrite the rows' copies in the tables below.
 */
async function fixVenueWords(tx: Prisma.TransactionClient, drifted: string[]): Promise<Done> {
  const changed = await tx.$executeRawUnsafe(
    `UPDATE "Venue" SET "searchHead" = ${HEAD}, "searchDocument" = ${documentOf(HEAD)}
      WHERE slug IN (${driftedWords('WHERE slug = ANY($1::text[])')})`,
    drifted,
  );
  return { added: 0, changed, removed: 0 };
}

/**
 * A table the triggers keep as what `expected` selects from Venue, one row per `key` with `values` (`expected` names
 * its columns so). The SELECT that finds its drift before the lock and the statement that fixes it under the lock are
 * both written from this. `growOnly`: the trigger only ever adds to it (a name no venue uses matches nothing), so
 * only missing rows are drift. `materialized`: `expected` is computed once for its several uses (an unnest), not read
 * where each use is (a plain read of Venue, whose rows are large).
 */
interface CopiedTable {
  table: string;
  key: readonly string[];
  values: readonly string[];
  expected: string;
  growOnly?: boolean;
  materialized?: boolean;
}

/** Each fixed, when found drifted, after the venues' own words (fixVenueWords), from which the first two are made. */
const COPIED_TABLES: CopiedTable[] = [
  {
    table: 'VenueSearchWords',
    key: ['slug'],
    values: ['published', 'searchHead', 'searchDocument'],
    expected: `SELECT slug, published, "searchHead", "searchDocument" FROM "Venue"`,
  },
  {
    table: 'VenueSearchDocument',
    key: ['slug'],
    values: ['published', 'searchDocument'],
    expected: `SELECT slug, published, "searchDocument" FROM "Venue"`,
  },
  {
    table: 'VenueSearchTerm',
    key: ['term'],
    values: [],
    expected: `SELECT DISTINCT t AS term FROM "Venue" v, unnest(tsvector_to_array(v."searchDocument")) t`,
    growOnly: true,
  },
  {
    table: 'ListedVenueAmenity',
    key: ['amenity', 'slug'],
    values: ['currency', 'startingTotal'],
    expected: `SELECT DISTINCT a AS amenity, v.slug, v.currency, v."startingTotal" FROM "Venue" v, unnest(v.amenities) a
                WHERE v.published AND a IS NOT NULL`,
    materialized: true,
  },
  {
    table: 'VenuePropertyType',
    key: ['name'],
    values: [],
    expected: `SELECT DISTINCT "propertyType" AS name FROM "Venue" WHERE "propertyType" IS NOT NULL`,
    growOnly: true,
  },
];

/**
 * What a copied table's find and fix are written from: the rows missing from it and those it should not hold (each
 * `FROM … WHERE …`), the test of a row whose values differ from its expected row, its insert and its update.
 */
function copyParts({ table, key, values, expected, materialized }: CopiedTable) {
  const names = (list: readonly string[], alias = '') => list.map((name) => `${alias}"${name}"`).join(', ');
  const sameKey = key.map((name) => `t."${name}" = e."${name}"`).join(' AND ');
  return {
    with: `WITH expected AS ${materialized ? '' : 'NOT '}MATERIALIZED (${expected})`,
    missing: `FROM expected e WHERE NOT EXISTS (SELECT 1 FROM "${table}" t WHERE ${sameKey})`,
    extra: `FROM "${table}" t WHERE NOT EXISTS (SELECT 1 FROM expected e WHERE ${sameKey})`,
    /** A row of the table `t` and its expected row `e`, by key, whose values differ. */
    differs: `${sameKey} AND (${names(values, 't.')}) IS DISTINCT FROM (${names(values, 'e.')})`,
    insert: `INSERT INTO "${table}" (${names([...key, ...values])}) SELECT ${names([...key, ...values], 'e.')}`,
    set: values.map((name) => `"${name}" = e."${name}"`).join(', '),
  };
}

/** Whether the table differs from what Venue says it should hold: a read, made before the lock. */
function findCopyDrift(copy: CopiedTable): string {
  const parts = copyParts(copy);
  const tests = [`EXISTS (SELECT 1 ${parts.missing})`];
  if (!copy.growOnly) {
    tests.push(`EXISTS (SELECT 1 FROM "${copy.table}" t, expected e WHERE ${parts.differs})`, `EXISTS (SELECT 1 ${parts.extra})`);
  }
  return `${parts.with} SELECT ${tests.join(' OR ')} AS drifted`;
}

/** The statement that makes the table what Venue says, reporting what it added, changed and removed. */
function fixCopy(copy: CopiedTable): string {
  const parts = copyParts(copy);
  if (copy.growOnly) {
    return `${parts.with}, added AS (${parts.insert} ${parts.missing} ORDER BY 1 ON CONFLICT DO NOTHING RETURNING 1) ${report('added')}`;
  }
  return `${parts.with},
    removed AS (DELETE ${parts.extra} RETURNING 1),
    changed AS (UPDATE "${copy.table}" t SET ${parts.set} FROM expected e WHERE ${parts.differs} RETURNING 1),
    added AS (${parts.insert} ${parts.missing} RETURNING 1)
    ${report('added', 'changed', 'removed')}`;
}

/** Thrown to roll back a reconcile that found nothing: its statements must not raise the catalogue generation. */
class NothingToFix extends Error {}

/**
 * Recomputes every table venue search reads from Venue, and returns what it changed. What drifted is found first,
 * with reads and no lock: the venues whose words differ, each copied table that differs, the totals. A run that finds
 * nothing ends there, and catalogue writers never waited for it. Otherwise only what was found is fixed, under the
 * catalogue lock (underCatalogueLock), which catalogue writers wait for, each fix comparing again. A write to any of
 * these tables raises the catalogue generation, which retires the answers computed from the wrong rows on every node;
 * a run whose fixes found nothing left to fix under the lock is rolled back, so it changes nothing, the generation
 * included. A row made wrong while the reads run (by a write no trigger sees) is fixed by the next run.
 *
 * `unlocked` runs between the two: tests write there.
 */
export async function reconcileVenueSearchData(prisma: PrismaClient, unlocked?: () => Promise<void>): Promise<SearchDataReconcile> {
  const started = performance.now();
  let tables: TableFix[] = [];
  let counts: CountDrift[] = [];
  const drifted = (await prisma.$queryRawUnsafe<Array<{ slug: string }>>(driftedWords())).map((row) => row.slug);
  const copies: CopiedTable[] = [];
  for (const copy of COPIED_TABLES) {
    if ((await prisma.$queryRawUnsafe<Array<{ drifted: boolean }>>(findCopyDrift(copy)))[0].drifted) copies.push(copy);
  }
  const countsDrifted = (await findCountDrift(prisma)).length > 0;
  await unlocked?.();
  if (drifted.length === 0 && copies.length === 0 && !countsDrifted) return { tables, counts, elapsedMs: performance.now() - started };
  await underCatalogueLock(prisma, async (tx) => {
    const done = (table: string, fix: Done) => {
      if (fix.added + fix.changed + fix.removed > 0) tables.push({ table, ...fix });
    };
    if (drifted.length > 0) done('Venue (searchHead, searchDocument)', await fixVenueWords(tx, drifted));
    for (const copy of copies) done(copy.table, (await tx.$queryRawUnsafe<Done[]>(fixCopy(copy)))[0]);
    if (countsDrifted) counts = await fixPublishedVenueCounts(tx);
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
  if (result.tables.length === 0) {
    lines.push('Venue words, VenueSearchWords, VenueSearchDocument, VenueSearchTerm, ListedVenueAmenity, VenuePropertyType: exact.');
  }
  return [...lines, ...describeDrift({ fixed: result.counts, elapsedMs: result.elapsedMs })];
}
