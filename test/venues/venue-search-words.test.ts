// A search by words alone reads VenueSearchWords, which a trigger keeps as Venue's words and publication in the
// writer's statement (migration venue_search_words): each kind of venue write reaches it, through the API's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { followCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { createLogger } from '../../src/logging/logger.js';

let t: TestApp;
let followed: CatalogueGeneration;
beforeAll(async () => {
  const db = await createTestDatabase();
  followed = await followCatalogueGeneration(db.prisma, createLogger({ level: 'silent' }), 10);
  t = await createTestApp({ database: db, catalogueGeneration: followed.current });
});
afterAll(async () => {
  await t.close();
  followed.stop();
  await t.db.close();
});

/** The slugs q finds, by words alone (REST and GraphQL agree). */
async function found(q: string): Promise<string[]> {
  const res = await t.rest(`/api/v1/venues?q=${encodeURIComponent(q)}&limit=100`);
  expect(res.status, res.text).toBe(200);
  const slugs = res.body.data.map((v: { slug: string }) => v.slug);
  const gql = await t.graphql(`query($q: String) { venues(q: $q, first: 100) { nodes { slug } } }`, { q });
  expect(gql.body.data.venues.nodes.map((v: { slug: string }) => v.slug)).toEqual(slugs);
  return slugs;
}

/** Writes a venue by plain SQL, as psql would, and waits until the app follows the catalogue generation it raised. */
async function write(sql: string, ...params: unknown[]) {
  const generation = followed.current();
  expect(await t.db.prisma.$executeRawUnsafe(sql, ...params)).toBe(1);
  await expect.poll(() => followed.current()).toBeGreaterThan(generation);
}

/** The rows of VenueSearchWords that differ from their venue's words or publication, or have no venue. */
const drift = async () =>
  (
    await t.db.readRows<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Venue" v FULL JOIN "VenueSearchWords" w ON w.slug = v.slug
       WHERE (v.slug, v.published, v."searchHead", v."searchDocument") IS DISTINCT FROM (w.slug, w.published, w."searchHead", w."searchDocument")`,
      [],
    )
  )[0].n;

describe('words alone after a venue write', () => {
  it('the seed and the migration leave one row per venue, equal to it', async () => {
    expect(await drift()).toBe(0);
  });

  it('follow a description, a rename, unpublishing and publishing again, and a delete', async () => {
    const [venue] = await t.db.readRows<{ id: string; slug: string }>(`SELECT id, slug FROM "Venue" WHERE published ORDER BY slug LIMIT 1`, []);
    expect(await found('zephyrlight')).toEqual([]);

    await write(`UPDATE "Venue" SET description = coalesce(description, '') || ' A zephyrlight terrace.' WHERE id = $1::uuid`, venue.id);
    expect(await found('zephyrlight')).toEqual([venue.slug]);

    const renamed = `${venue.slug}-renamed`;
    await write(`UPDATE "Venue" SET slug = $2 WHERE id = $1::uuid`, venue.id, renamed);
    expect(await found('zephyrlight')).toEqual([renamed]);

    await write(`UPDATE "Venue" SET published = false WHERE id = $1::uuid`, venue.id);
    expect(await found('zephyrlight')).toEqual([]);
    await write(`UPDATE "Venue" SET published = true WHERE id = $1::uuid`, venue.id);
    expect(await found('zephyrlight')).toEqual([renamed]);
    expect(await drift()).toBe(0);

    await t.db.prisma.$executeRawUnsafe(`DELETE FROM "VenuePhoto" WHERE "venueId" = $1::uuid`, venue.id);
    await t.db.prisma.$executeRawUnsafe(`DELETE FROM "Testimonial" WHERE "venueId" = $1::uuid`, venue.id);
    await write(`DELETE FROM "Venue" WHERE id = $1::uuid`, venue.id);
    expect(await found('zephyrlight')).toEqual([]);
    expect(await drift()).toBe(0);
  });
});
