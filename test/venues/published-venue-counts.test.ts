import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Venue } from '../../src/generated/prisma/client.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { countedFromVenues, countedInTable } from './published-venue-counts.support.js';

// PublishedVenueCount (migration 20261128225455_published_venue_counts) holds the total_count of a search without
// filters and of a search by two amenities alone, kept by statement triggers on Venue. The reference here counts
// Venue itself, written independently of the trigger's key function.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const reference = () => countedFromVenues(t.db.prisma);
const counted = () => countedInTable(t.db.prisma);

async function expectExact(step: string) {
  expect(await counted(), step).toEqual(await reference());
}

/** total_count of a REST search and totalCount of the same GraphQL search, which must agree. */
async function totals(amenities?: string) {
  const rest = await t.rest(`/api/v1/venues?limit=1${amenities ? `&amenities=${amenities}` : ''}`);
  expect(rest.status, rest.text).toBe(200);
  const gql = await t.graphql('query($a: [String!]) { venues(amenities: $a, first: 1) { totalCount } }', {
    a: amenities?.split(','),
  });
  expect(gql.body.errors, gql.text).toBeUndefined();
  expect(gql.body.data.venues.totalCount, amenities).toBe(rest.body.pagination.total_count);
  return rest.body.pagination.total_count as number;
}

const publishedWith = (amenities: string[]) => t.db.prisma.venue.count({ where: { published: true, amenities: { hasEvery: amenities } } });

let copies = 0;
/** A new venue like `like`, with its own id and slug. */
function copyOf(like: Venue, data: Partial<Venue>) {
  copies++;
  const { id: _id, slug, ...rest } = like;
  return { ...rest, slug: `${slug}-copy-${copies}`, ...data } as Omit<Venue, 'id'>;
}

describe('PublishedVenueCount', () => {
  it('holds, after the seed, every published venue and each pair of amenities listed together', async () => {
    const rows = await reference();
    expect(rows.length).toBeGreaterThan(10);
    await expectExact('seeded');
  });

  it('answers the total of a search without filters and of two amenities alone, in either order, on both surfaces', async () => {
    expect(await totals()).toBe(await t.db.prisma.venue.count({ where: { published: true } }));
    const pair = await publishedWith(['pool', 'hot-tub']);
    expect(pair).toBeGreaterThan(0);
    expect(await totals('pool,hot-tub')).toBe(pair);
    expect(await totals('hot-tub,pool')).toBe(pair);
    // The same amenity twice is one amenity; a pair no venue lists has no row and counts 0.
    expect(await totals('pool,pool')).toBe(await publishedWith(['pool']));
    expect(await totals('pool,no-such-amenity')).toBe(0);
    // The count is a row read in the page's own statement: nothing counts venues or joins their amenities.
    for (const query of ['', '&amenities=pool,hot-tub', '&amenities=hot-tub,pool']) {
      const sql: string[] = [];
      const stop = t.db.onQuery((e) => sql.push(e.query));
      await t.rest(`/api/v1/venues?limit=20${query}`);
      stop();
      const page = sql.filter((q) => q.includes('FROM "Venue"'));
      expect(page, query).toHaveLength(1);
      expect(page[0], query).toContain('"PublishedVenueCount"');
      expect(sql.join('\n'), query).not.toMatch(/count\(|ListedVenueAmenity/);
    }
  });

  it('follows every kind of catalogue write in the same transaction: inserts, updates, unpublishing, deletes', async () => {
    const like = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true }, orderBy: { slug: 'asc' } });
    const before = { all: await totals(), pair: await totals('pool,hot-tub'), fresh: await totals('pool,zz-new-amenity') };

    // One statement inserting several venues (the seed's shape), one unpublished, one listing an amenity twice.
    await t.db.prisma.venue.createMany({
      data: [
        copyOf(like, { published: true, amenities: ['pool', 'hot-tub', 'zz-new-amenity'] }),
        copyOf(like, { published: true, amenities: ['hot-tub', 'pool', 'pool'] }),
        copyOf(like, { published: false, amenities: ['pool', 'hot-tub', 'zz-new-amenity'] }),
      ],
    });
    await expectExact('after createMany');
    expect(await totals()).toBe(before.all + 2);
    expect(await totals('pool,hot-tub')).toBe(before.pair + 2);
    expect(await totals('zz-new-amenity,pool')).toBe(before.fresh + 1);

    // A transaction that fails leaves the counts as they were.
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await tx.venue.create({ data: copyOf(like, { published: true, amenities: ['pool', 'hot-tub'] }) });
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    await expectExact('after a rolled-back insert');

    const inserted = await t.db.prisma.venue.findMany({ where: { slug: { contains: '-copy-' } }, orderBy: { slug: 'asc' } });
    await t.db.prisma.venue.update({ where: { id: inserted[0].id }, data: { amenities: ['pool', 'wifi'] } });
    await expectExact('after changing amenities');
    await t.db.prisma.venue.updateMany({ where: { slug: { contains: '-copy-' } }, data: { published: true } });
    await expectExact('after publishing');
    // Columns the counts do not depend on: nothing to change (and nothing changed).
    await t.db.prisma.venue.updateMany({ where: { published: true }, data: { totalPhotos: { increment: 1 } } });
    await expectExact('after an unrelated update of every venue');
    await t.db.prisma.venue.update({ where: { id: inserted[1].id }, data: { published: false } });
    await expectExact('after unpublishing');
    await t.db.prisma.venue.deleteMany({ where: { slug: { contains: '-copy-' } } });
    await expectExact('after deleting');
    expect({ all: await totals(), pair: await totals('pool,hot-tub'), fresh: await totals('pool,zz-new-amenity') }).toEqual(before);
  });

  it('stays exact when writers run at once', async () => {
    const like = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true }, orderBy: { slug: 'desc' } });
    const before = await totals('pool,hot-tub');
    // Each transaction updates the same count rows; on PostgreSQL they wait for each other in key order.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.db.prisma.$transaction(async (tx) => {
          await tx.venue.create({ data: copyOf(like, { published: true, amenities: i % 2 ? ['pool', 'hot-tub'] : ['hot-tub', 'pool', 'wifi'] }) });
          await tx.venue.create({ data: copyOf(like, { published: true, amenities: ['wifi', 'pool'] }) });
        }),
      ),
    );
    await expectExact('after concurrent inserts');
    expect(await totals('pool,hot-tub')).toBe(before + 6);
  });

  it('counts nothing once the venues are truncated', async () => {
    await t.db.prisma.$executeRawUnsafe('TRUNCATE "Venue" CASCADE');
    await expectExact('after TRUNCATE');
    expect(await totals()).toBe(0);
    expect(await totals('pool,hot-tub')).toBe(0);
  });
});
