// The facets of a search with filters alone are counted over the catalogue's facet columns, which a server reads once
// per catalogue generation (src/venues/venue-facet-index.ts): a committed venue write moves the generation, and the
// next search counts the catalogue as written, on both surfaces.
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

interface Counted {
  value: string;
  count: number;
}

/** A state's search: its total, first venue, and the state and amenity facets (each leaving out its own filter). */
async function search(state: string) {
  const res = await t.rest(`/api/v1/venues?state=${state}&limit=1&facets=state,amenities`);
  expect(res.status).toBe(200);
  const facets = res.body.facets as { state: Counted[]; amenities: Counted[] };
  const gql = await t.graphql(`{ venues(state: "${state}", first: 1, facets: [STATE]) { totalCount facets { state { value count } } } }`);
  expect(gql.body.data.venues.facets.state).toEqual(facets.state.map(({ value, count }) => ({ value, count })));
  return {
    total: res.body.pagination.total_count as number,
    venue: res.body.data[0] as { slug: string; amenities: string[] },
    stateCount: facets.state.find((s) => s.value === state)!.count,
    amenities: new Map(facets.amenities.map((a) => [a.value, a.count])),
  };
}

describe('facets of filters alone after a catalogue write', () => {
  it('leave out a venue unpublished once the generation has moved, as the total does', async () => {
    const [state] = (await t.rest('/api/v1/venues?limit=1&facets=state')).body.facets.state as Counted[];
    const before = await search(state.value);
    // The state facet leaves out the state filter: the state's own count is the search's total.
    expect(before.stateCount).toBe(before.total);
    expect(before.venue.amenities.length).toBeGreaterThan(0);

    const generation = followed.current();
    await t.db.prisma.venue.update({ where: { slug: before.venue.slug }, data: { published: false } });
    await expect.poll(() => followed.current()).toBeGreaterThan(generation);

    const after = await search(state.value);
    expect(after.total).toBe(before.total - 1);
    expect(after.stateCount).toBe(before.stateCount - 1);
    for (const amenity of before.venue.amenities) expect(after.amenities.get(amenity) ?? 0).toBe(before.amenities.get(amenity)! - 1);
  });
});
