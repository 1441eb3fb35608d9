// Writes the PublishedVenueCount triggers did not see (here: the triggers disabled, as `pg_restore --disable-triggers`
// or a replica-role session leave them) make the counts drift for good; reconcilePublishedVenueCounts
// (`npm run db:reconcile`) recomputes them from Venue and says what it fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { catalogueLocksTaken, countedFromVenues, countedInTable, followingTestApp } from './published-venue-counts.support.js';
import { readCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { describeDrift, reconcilePublishedVenueCounts } from '../../src/venues/published-venue-counts.js';
import { testDatabaseKind } from '../support/database.js';

const COUNT_TRIGGERS = ['Venue_count_inserted', 'Venue_count_updated', 'Venue_count_deleted', 'Venue_count_truncated'];

let t: TestApp;
let followed: CatalogueGeneration;
let close: () => Promise<void>;
beforeAll(async () => ({ t, followed, close } = await followingTestApp()));
afterAll(() => close());

const reference = () => countedFromVenues(t.db.prisma);
const counted = () => countedInTable(t.db.prisma);

async function setCountTriggers(state: 'ENABLE' | 'DISABLE') {
  for (const name of COUNT_TRIGGERS) await t.db.prisma.$executeRawUnsafe(`ALTER TABLE "Venue" ${state} TRIGGER "${name}"`);
}

/** total_count of a search without filters (read from PublishedVenueCount), once this node follows the generation. */
async function servedTotal(): Promise<number> {
  await expect.poll(async () => followed.current()).toBe(await readCatalogueGeneration(t.db.prisma));
  const res = await t.rest('/api/v1/venues?limit=1');
  expect(res.status, res.text).toBe(200);
  return res.body.pagination.total_count as number;
}

const published = () => t.db.prisma.venue.count({ where: { published: true } });

describe('reconciling PublishedVenueCount', () => {
  it('finds nothing to fix after the seed, and then writes nothing and takes no lock (the generation stays)', async () => {
    expect(await counted()).toEqual(await reference());
    const generation = await readCatalogueGeneration(t.db.prisma);
    // Each start runs this check: with nothing to fix, catalogue writers never wait for it.
    const { locks, result } = await catalogueLocksTaken(t.db, () => reconcilePublishedVenueCounts(t.db.prisma));
    expect(locks).toBe(0);
    expect(result.fixed).toEqual([]);
    expect(describeDrift(result)).toEqual(['PublishedVenueCount: exact, nothing changed.']);
    expect(await readCatalogueGeneration(t.db.prisma)).toBe(generation);
  });

  it('fixes the drift of writes made with the count triggers disabled, reports it, and the served total follows', async () => {
    const total = await published();
    expect(await servedTotal()).toBe(total);

    await setCountTriggers('DISABLE');
    try {
      // Two new published venues (copies listing pool and hot-tub), two unpublished, one deleted: plain SQL.
      await t.db.prisma.$executeRawUnsafe(`
        INSERT INTO "Venue" (id, slug, name, city, "citySlug", state, "stateSlug", currency, "minNights", categories, amenities)
        SELECT gen_random_uuid(), slug || '-reconcile-' || n, name, city, "citySlug", state, "stateSlug", currency, "minNights",
               categories, ARRAY['pool', 'hot-tub', 'zz-reconcile']
          FROM (SELECT * FROM "Venue" WHERE published ORDER BY slug LIMIT 1) v, generate_series(1, 2) n`);
      await t.db.prisma.$executeRawUnsafe(
        `UPDATE "Venue" SET published = false WHERE slug IN (SELECT slug FROM "Venue" WHERE published ORDER BY slug DESC LIMIT 2)`,
      );
      await t.db.prisma.$executeRawUnsafe(
        `DELETE FROM "Venue" WHERE slug = (SELECT slug FROM "Venue" WHERE published AND slug NOT LIKE '%-reconcile-%' ORDER BY slug LIMIT 1 OFFSET 5)`,
      );
    } finally {
      await setCountTriggers('ENABLE');
    }

    // The venues changed, the counts did not: the search total is wrong, and would stay so.
    expect(await published()).toBe(total - 1);
    expect(await counted()).not.toEqual(await reference());
    expect(await servedTotal()).toBe(total);

    const generation = await readCatalogueGeneration(t.db.prisma);
    const { locks, result } = await catalogueLocksTaken(t.db, () => reconcilePublishedVenueCounts(t.db.prisma));
    expect(locks).toBe(1);
    expect(result.fixed).toContainEqual({ amenity: '', otherAmenity: '', before: total, after: total - 1 });
    expect(result.fixed).toContainEqual({ amenity: 'hot-tub', otherAmenity: 'zz-reconcile', before: null, after: 2 });
    expect(result.fixed.every((d) => d.before !== d.after)).toBe(true);
    const report = describeDrift(result);
    expect(report[0]).toBe(`PublishedVenueCount: fixed ${result.fixed.length} row(s), before -> after:`);
    expect(report[1]).toBe(`  every published venue: ${total} -> ${total - 1}`);

    expect(await counted()).toEqual(await reference());
    // The fix raised the generation: the answer cached with the wrong total is retired on every node.
    expect(await readCatalogueGeneration(t.db.prisma)).toBe(generation + 1);
    expect(await servedTotal()).toBe(total - 1);

    // Fixed for good: a second run finds nothing, and the triggers keep the counts again.
    expect((await reconcilePublishedVenueCounts(t.db.prisma)).fixed).toEqual([]);
    await t.db.prisma.$executeRawUnsafe(`UPDATE "Venue" SET published = true WHERE NOT published`);
    expect(await counted()).toEqual(await reference());
  });

  /** A venue write left uncommitted until `commit` is called: the transaction holds the catalogue writers' lock. */
  async function writeInProgress() {
    let written!: () => void;
    let commit!: () => void;
    const inProgress = new Promise<void>((resolve) => (written = resolve));
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const writer = t.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE "Venue" SET published = NOT published WHERE slug = (SELECT min(slug) FROM "Venue")`);
      written();
      await committed;
    });
    await inProgress;
    return { commit: () => (commit(), writer) };
  }

  it('fixes drift only once a venue write in progress has committed, so it never counts around one', async () => {
    await setCountTriggers('DISABLE');
    try {
      await t.db.prisma.$executeRawUnsafe(`UPDATE "Venue" SET published = NOT published WHERE slug = (SELECT max(slug) FROM "Venue")`);
    } finally {
      await setCountTriggers('ENABLE');
    }
    const writer = await writeInProgress();
    let reconciled = false;
    const reconcile = reconcilePublishedVenueCounts(t.db.prisma).finally(() => (reconciled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reconciled).toBe(false);
    await writer.commit();
    expect((await reconcile).fixed.length).toBeGreaterThan(0);
    expect(await counted()).toEqual(await reference());
  });

  // PGlite serves one transaction at a time: there the check waits for the write's commit all the same.
  it.skipIf(testDatabaseKind() !== 'postgres')('finds nothing to fix without waiting for a venue write in progress', async () => {
    const writer = await writeInProgress();
    try {
      // Its read sees the venues and their counts as last committed, both before the write.
      expect((await reconcilePublishedVenueCounts(t.db.prisma)).fixed).toEqual([]);
    } finally {
      await writer.commit();
    }
    expect(await counted()).toEqual(await reference());
  });
});
