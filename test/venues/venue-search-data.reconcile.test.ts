// Writes no trigger sees (a replica-role session here, as `pg_restore --disable-triggers` leaves them) make every table
// venue search reads beside Venue's columns wrong for good: words, amenities, venue types and totals. The reconcile
// (`npm run db:reconcile`) recomputes them from Venue, says what it fixed, and the served answers follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { catalogueLocksTaken, countedFromVenues, countedInTable, followingTestApp } from './published-venue-counts.support.js';
import { testDatabaseKind } from '../support/database.js';
import { readCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { describeSearchDataFix, reconcileVenueSearchData } from '../../src/venues/venue-search-data.js';

let t: TestApp;
let followed: CatalogueGeneration;
let close: () => Promise<void>;
beforeAll(async () => ({ t, followed, close } = await followingTestApp()));
afterAll(() => close());

/**
 * How far each table is from what Venue says it should hold, written independently of the reconcile's statements. A
 * venue's own words are not recomputed here: what `q` finds checks them.
 */
async function drift(): Promise<Record<string, number>> {
  const [row] = await t.db.prisma.$queryRawUnsafe<Array<Record<string, number>>>(`
    SELECT
      (SELECT count(*) FROM (
         SELECT a, slug, currency, "startingTotal" FROM "Venue", unnest(amenities) a WHERE published AND a IS NOT NULL
         EXCEPT SELECT amenity, slug, currency, "startingTotal" FROM "ListedVenueAmenity") m)::int AS "amenitiesMissing",
      (SELECT count(*) FROM (
         SELECT amenity, slug, currency, "startingTotal" FROM "ListedVenueAmenity"
         EXCEPT SELECT a, slug, currency, "startingTotal" FROM "Venue", unnest(amenities) a WHERE published AND a IS NOT NULL) m)::int AS "amenitiesExtra",
      (SELECT count(*) FROM "Venue" v LEFT JOIN "VenueSearchWords" w USING (slug)
        WHERE w.slug IS NULL OR w.published <> v.published OR w."searchDocument"::text IS DISTINCT FROM v."searchDocument"::text
           OR w."searchHead"::text IS DISTINCT FROM v."searchHead"::text)::int AS "wordsWrong",
      (SELECT count(*) FROM "VenueSearchWords" w WHERE NOT EXISTS (SELECT 1 FROM "Venue" v WHERE v.slug = w.slug))::int AS "wordsExtra",
      (SELECT count(*) FROM "Venue" v LEFT JOIN "VenueSearchDocument" d USING (slug)
        WHERE d.slug IS NULL OR d.published <> v.published OR d."searchDocument"::text IS DISTINCT FROM v."searchDocument"::text)::int AS "documentsWrong",
      (SELECT count(*) FROM "VenueSearchDocument" d WHERE NOT EXISTS (SELECT 1 FROM "Venue" v WHERE v.slug = d.slug))::int AS "documentsExtra",
      (SELECT count(*) FROM "Venue" WHERE "searchDocument" IS NULL OR "searchHead" IS NULL)::int AS "venuesWithoutWords",
      (SELECT count(DISTINCT "propertyType") FROM "Venue" v
        WHERE "propertyType" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "VenuePropertyType" p WHERE p.name = v."propertyType"))::int AS "typesMissing",
      (SELECT count(*) FROM (SELECT DISTINCT t FROM "Venue", unnest(tsvector_to_array("searchDocument")) t) d
        WHERE NOT EXISTS (SELECT 1 FROM "VenueSearchTerm" s WHERE s.term = d.t))::int AS "termsMissing"`);
  return row;
}

const exact = {
  amenitiesMissing: 0,
  amenitiesExtra: 0,
  wordsWrong: 0,
  wordsExtra: 0,
  documentsWrong: 0,
  documentsExtra: 0,
  venuesWithoutWords: 0,
  typesMissing: 0,
  termsMissing: 0,
};

/** A search's total, once this node follows the generation the database is at. */
async function servedTotal(query: string): Promise<number> {
  await expect.poll(async () => followed.current()).toBe(await readCatalogueGeneration(t.db.prisma));
  const res = await t.rest(`/api/v1/venues?limit=1&${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.pagination.total_count as number;
}

const publishedWith = async (amenity: string) => t.db.prisma.venue.count({ where: { published: true, amenities: { has: amenity } } });

describe('reconciling what venue search reads', () => {
  it('finds nothing to fix after the seed, and then writes nothing and takes no lock (the generation stays)', async () => {
    expect(await drift()).toEqual(exact);
    const generation = await readCatalogueGeneration(t.db.prisma);
    const { locks, result } = await catalogueLocksTaken(t.db, () => reconcileVenueSearchData(t.db.prisma));
    expect(locks).toBe(0);
    expect(result.tables).toEqual([]);
    expect(result.counts).toEqual([]);
    expect(describeSearchDataFix(result)).toEqual([
      'Venue words, VenueSearchWords, VenueSearchDocument, VenueSearchTerm, ListedVenueAmenity, VenuePropertyType: exact.',
      'PublishedVenueCount: exact, nothing changed.',
    ]);
    expect(await readCatalogueGeneration(t.db.prisma)).toBe(generation);
  });

  it('fixes every table after writes no trigger saw, reports each, and the served answers follow', async () => {
    const pools = await publishedWith('pool');
    expect(await servedTotal('q=zyzzyva')).toBe(0);
    expect(await servedTotal('q=quokkaville')).toBe(0);
    expect(await servedTotal('venue_type=lighthouse')).toBe(0);
    expect(await servedTotal('amenities=pool')).toBe(pools);

    const [renamed, unpublished, removed] = await t.db.prisma.$queryRawUnsafe<Array<{ slug: string }>>(
      `SELECT slug FROM "Venue" WHERE published AND 'pool' = ANY(amenities) ORDER BY slug LIMIT 3`,
    );
    await t.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      // A new published venue with a new word, a new venue type and pool (its words are never computed), a venue
      // renamed and repriced, one unpublished, one deleted (its copies are not cascaded away).
      await tx.$executeRawUnsafe(
        `
        INSERT INTO "Venue" (id, slug, name, city, "citySlug", state, "stateSlug", currency, "minNights", categories, amenities,
                             "propertyType", "startingTotal")
        SELECT gen_random_uuid(), slug || '-zyzzyva', 'Zyzzyva Lighthouse Retreat', city, "citySlug", state, "stateSlug", currency,
               "minNights", categories, ARRAY['pool', 'hot-tub'], 'Lighthouse', 4321
          FROM "Venue" WHERE slug = $1`,
        renamed.slug,
      );
      await tx.$executeRawUnsafe(`UPDATE "Venue" SET name = 'Quokkaville Manor', "startingTotal" = 1234 WHERE slug = $1`, renamed.slug);
      await tx.$executeRawUnsafe(`UPDATE "Venue" SET published = false WHERE slug = $1`, unpublished.slug);
      await tx.$executeRawUnsafe(`DELETE FROM "Venue" WHERE slug = $1`, removed.slug);
    });

    // The venues changed, what search reads did not: wrong answers, and they would stay wrong.
    expect(await publishedWith('pool')).toBe(pools - 1);
    const before = await drift();
    for (const key of [
      'amenitiesMissing',
      'amenitiesExtra',
      'wordsWrong',
      'wordsExtra',
      'documentsWrong',
      'documentsExtra',
      'venuesWithoutWords',
      'typesMissing',
    ])
      expect(before[key], key).toBeGreaterThan(0);
    expect(await servedTotal('q=zyzzyva')).toBe(0);
    expect(await servedTotal('q=quokkaville')).toBe(0);
    expect(await servedTotal('venue_type=lighthouse')).toBe(0);

    const generation = await readCatalogueGeneration(t.db.prisma);
    const { locks, result } = await catalogueLocksTaken(t.db, () => reconcileVenueSearchData(t.db.prisma));
    expect(locks).toBe(1);
    const fixed = Object.fromEntries(result.tables.map(({ table, ...done }) => [table, done]));
    // The new venue's words and the renamed one's.
    expect(fixed['Venue (searchHead, searchDocument)']).toEqual({ added: 0, changed: 2, removed: 0 });
    // Those two rows rewritten by the reconcile's own update (its trigger), the unpublished one, the new one (added by
    // the same trigger) and the deleted one.
    expect(fixed.VenueSearchWords).toMatchObject({ changed: 1, removed: 1 });
    expect(fixed.VenueSearchDocument).toMatchObject({ changed: 1, removed: 1 });
    expect(fixed.ListedVenueAmenity.added).toBe(2);
    expect(fixed.ListedVenueAmenity.changed).toBeGreaterThan(0);
    expect(fixed.ListedVenueAmenity.removed).toBeGreaterThan(0);
    expect(fixed.VenuePropertyType).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(result.counts.length).toBeGreaterThan(0);
    const report = describeSearchDataFix(result);
    expect(report).toContain('VenuePropertyType: 1 added, 0 changed, 0 removed.');
    expect(report).toContain(`PublishedVenueCount: fixed ${result.counts.length} row(s), before -> after:`);

    expect(await drift()).toEqual(exact);
    expect(await countedInTable(t.db.prisma)).toEqual(await countedFromVenues(t.db.prisma));
    // The fix raised the generation once: the answers cached from the wrong rows are retired on every node.
    expect(await readCatalogueGeneration(t.db.prisma)).toBe(generation + 1);
    expect(await servedTotal('q=zyzzyva')).toBe(1);
    expect(await servedTotal('q=quokkaville')).toBe(1);
    expect(await servedTotal('venue_type=lighthouse')).toBe(1);
    expect(await servedTotal('amenities=pool')).toBe(pools - 1);

    // Fixed for good: a second run finds nothing and changes nothing.
    const again = await reconcileVenueSearchData(t.db.prisma);
    expect([again.tables, again.counts]).toEqual([[], []]);
    expect(await readCatalogueGeneration(t.db.prisma)).toBe(generation + 1);
  });

  it('reads the venues before it takes the catalogue lock, and compares each drifted row again under it', async () => {
    const [fixedMeanwhile, driftedMeanwhile] = await t.db.prisma.$queryRawUnsafe<Array<{ slug: string }>>(
      `SELECT slug FROM "Venue" WHERE published ORDER BY slug LIMIT 2`,
    );
    const renameUnseen = (slug: string, name: string) =>
      t.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
        await tx.$executeRawUnsafe(`UPDATE "Venue" SET name = $2 WHERE slug = $1`, slug, name);
      });
    await renameUnseen(fixedMeanwhile.slug, 'Wombatfield Hall');

    const result = await reconcileVenueSearchData(t.db.prisma, async () => {
      // While the words are read no lock is held: a writer with its trigger fixes the row found drifted, and a
      // write no trigger sees makes another wrong, after the reading.
      await t.db.prisma.$executeRawUnsafe(`UPDATE "Venue" SET name = name WHERE slug = $1`, fixedMeanwhile.slug);
      await renameUnseen(driftedMeanwhile.slug, 'Numbatgrove House');
    });
    // The row found drifted was right by the time the lock was held, so nothing was written.
    expect([result.tables, result.counts]).toEqual([[], []]);
    expect(await servedTotal('q=wombatfield')).toBe(1);
    expect(await servedTotal('q=numbatgrove')).toBe(0);

    // The next run fixes what was written while the last one read.
    const next = await reconcileVenueSearchData(t.db.prisma);
    expect(next.tables).toEqual([{ table: 'Venue (searchHead, searchDocument)', added: 0, changed: 1, removed: 0 }]);
    expect(await servedTotal('q=numbatgrove')).toBe(1);
    expect(await drift()).toEqual(exact);
  });

  // PGlite serves one transaction at a time, so a lock held by one would stop the reconcile's reads too.
  it.skipIf(testDatabaseKind() !== 'postgres')('finishes a run with nothing to fix while a catalogue writer holds the lock', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const writer = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT 1 FROM "CatalogueState" WHERE id = 1 FOR UPDATE`);
        locked();
        await held;
      },
      { timeout: 60_000 },
    );
    try {
      await lockTaken;
      const result = await reconcileVenueSearchData(t.db.prisma);
      expect([result.tables, result.counts]).toEqual([[], []]);
    } finally {
      release();
      await writer;
    }
  });
});
