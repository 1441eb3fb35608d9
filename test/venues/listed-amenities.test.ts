import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

// A search whose one filter is one amenity reads ListedVenueAmenity, which a trigger on Venue keeps equal to the
// published venues' amenities (migration 20261125062006_listed_amenities). The reference here is Venue itself.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const VENUES_PAGE = `query($amenities: [String!], $after: String) {
  venues(amenities: $amenities, first: 100, after: $after) { totalCount nodes { slug amenities } pageInfo { hasNextPage endCursor } }
}`;

/** Published venues with the amenity, in slug order, read from Venue rather than from the listed table. */
async function reference(amenity: string): Promise<string[]> {
  const rows = await t.db.prisma.venue.findMany({
    where: { published: true, amenities: { has: amenity } },
    select: { slug: true },
    orderBy: { slug: 'asc' },
  });
  return rows.map((r) => r.slug);
}

async function restSearch(amenity: string) {
  const slugs: string[] = [];
  let cursor: string | null = null;
  let total: number;
  do {
    const res = await t.rest(`/api/v1/venues?amenities=${amenity}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    for (const v of res.body.data) expect(v.amenities).toContain(amenity);
    slugs.push(...res.body.data.map((v: { slug: string }) => v.slug));
    total = res.body.pagination.total_count;
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return { slugs, total };
}

async function graphqlSearch(amenity: string) {
  const slugs: string[] = [];
  let after: string | null = null;
  let total: number;
  do {
    const res = await t.graphql(VENUES_PAGE, { amenities: [amenity], ...(after ? { after } : {}) });
    expect(res.body.errors, res.text).toBeUndefined();
    const page = res.body.data.venues;
    for (const v of page.nodes) expect(v.amenities).toContain(amenity);
    slugs.push(...page.nodes.map((v: { slug: string }) => v.slug));
    total = page.totalCount;
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return { slugs, total };
}

async function expectBothSurfaces(amenity: string, expected: string[]) {
  expect(await restSearch(amenity)).toEqual({ slugs: expected, total: expected.length });
  expect(await graphqlSearch(amenity)).toEqual({ slugs: expected, total: expected.length });
}

/** Rows of the listed table that Venue does not account for, and the other way round: both empty when exact. */
async function listedDifference() {
  const published = `SELECT DISTINCT a AS amenity, v.slug FROM "Venue" v, unnest(v.amenities) a WHERE v.published AND a IS NOT NULL`;
  const listed = `SELECT amenity, slug FROM "ListedVenueAmenity"`;
  const [extra, missing] = await Promise.all([
    t.db.prisma.$queryRawUnsafe<unknown[]>(`${listed} EXCEPT ${published}`),
    t.db.prisma.$queryRawUnsafe<unknown[]>(`${published} EXCEPT ${listed}`),
  ]);
  return { extra, missing };
}

describe('venue search by one amenity (the listed amenities table)', () => {
  it('gives every published venue with the amenity, in slug order, with the exact total, on both surfaces', async () => {
    const counts = await t.db.prisma.$queryRawUnsafe<{ amenity: string; n: number }[]>(
      `SELECT a AS amenity, count(*)::int AS n FROM "Venue", unnest(amenities) a WHERE published GROUP BY a ORDER BY n DESC, a`,
    );
    expect(counts.length).toBeGreaterThan(2);
    // The most common amenity (several pages), the rarest, and one no venue has.
    for (const amenity of [counts[0].amenity, counts[counts.length - 1].amenity, 'no-such-amenity']) {
      const expected = await reference(amenity);
      await expectBothSurfaces(amenity, expected);
    }
    expect((await reference(counts[0].amenity)).length).toBeGreaterThan(100);
    expect(await listedDifference()).toEqual({ extra: [], missing: [] });
  });

  it('runs as many statements as a search without filters (the page with its venues joined, and the count)', async () => {
    const plain = await t.statements(() => t.rest('/api/v1/venues?limit=20'));
    expect(await t.statements(() => t.rest('/api/v1/venues?limit=20&amenities=pool'))).toBe(plain);
  });

  it('stays exact as venues are unpublished, edited, renamed, added and deleted (the trigger on Venue)', async () => {
    const prisma = t.db.prisma;
    const venue = await prisma.venue.findFirstOrThrow({ where: { published: true, amenities: { has: 'pool' } }, orderBy: { slug: 'asc' } });
    const pool = await reference('pool');
    expect(pool).toContain(venue.slug);

    await prisma.venue.update({ where: { id: venue.id }, data: { published: false } });
    await expectBothSurfaces(
      'pool',
      pool.filter((s) => s !== venue.slug),
    );

    await prisma.venue.update({
      where: { id: venue.id },
      data: { published: true, amenities: [...venue.amenities, 'test-amenity', 'test-amenity'] },
    });
    await expectBothSurfaces('pool', pool);
    await expectBothSurfaces('test-amenity', [venue.slug]);

    await prisma.venue.update({ where: { id: venue.id }, data: { slug: 'zz-renamed-venue', amenities: ['test-amenity'] } });
    await expectBothSurfaces('test-amenity', ['zz-renamed-venue']);
    await expectBothSurfaces(
      'pool',
      pool.filter((s) => s !== venue.slug),
    );

    const { id: _id, slug: _slug, createdAt: _c, updatedAt: _u, ...columns } = venue;
    await prisma.venue.create({ data: { ...columns, slug: 'aa-new-venue', amenities: ['test-amenity', 'pool', 'test-amenity'] } });
    await expectBothSurfaces('test-amenity', ['aa-new-venue', 'zz-renamed-venue']);

    await prisma.venue.delete({ where: { id: venue.id } });
    await expectBothSurfaces('test-amenity', ['aa-new-venue']);
    expect(await listedDifference()).toEqual({ extra: [], missing: [] });
  });
});
