// Discovery reads two things kept apart from the venue rows: words alone are searched in VenueSearchDocument and
// ranked in VenueSearchWords, which a trigger keeps as Venue's words and publication in the writer's statement
// (migrations venue_search_words, venue_search_document), and the
// facets of filters alone are counted over the catalogue's facet columns, read once per catalogue generation
// (src/venues/venue-facet-index.ts). Each kind of venue write, sent as plain SQL as psql would, reaches both answers
// once the app follows the generation it raised; what discovery read under the earlier generation is read again as
// soon as the node sees the new one, before a search asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { followCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { createLogger } from '../../src/logging/logger.js';
import type { RowReader } from '../../src/db/row-reader.js';
import { readCatalogueAhead, searchVocabulary } from '../../src/venues/venue-places.js';

let t: TestApp;
let followed: CatalogueGeneration;
beforeAll(async () => {
  const db = await createTestDatabase();
  // As main.ts follows it, with a poll of 10 ms instead of 5 s.
  const onChange = (next: number) => readCatalogueAhead(db.readRows, next);
  followed = await followCatalogueGeneration(db.prisma, createLogger({ level: 'silent' }), { intervalMs: 10, onChange });
  t = await createTestApp({ database: db, catalogueGeneration: followed.current });
});
afterAll(async () => {
  await t.close();
  followed.stop();
  await t.db.close();
});

/** The slugs q finds, by words alone (REST and GraphQL agree, relevance ranks and facets count the same venues). */
async function found(q: string): Promise<string[]> {
  const res = await t.rest(`/api/v1/venues?q=${encodeURIComponent(q)}&limit=100`);
  expect(res.status, res.text).toBe(200);
  const slugs = res.body.data.map((v: { slug: string }) => v.slug);
  const gql = await t.graphql(`query($q: String) { venues(q: $q, first: 100) { nodes { slug } } }`, { q });
  expect(gql.body.data.venues.nodes.map((v: { slug: string }) => v.slug)).toEqual(slugs);
  const ranked = await t.rest(`/api/v1/venues?q=${encodeURIComponent(q)}&sort=relevance&limit=100`);
  expect(ranked.body.data.map((v: { slug: string }) => v.slug).sort()).toEqual(slugs);
  // Facets count the venues the words match by their key in VenueSearchDocument, which a rename gives anew.
  const faceted = await t.rest(`/api/v1/venues?q=${encodeURIComponent(q)}&limit=1&facets=venue_type`);
  expect(faceted.status, faceted.text).toBe(200);
  expect(faceted.body.pagination.total_count).toBe(slugs.length);
  expect((faceted.body.facets.venue_type as Counted[]).reduce((sum, type) => sum + type.count, 0)).toBe(slugs.length);
  return slugs;
}

/** Writes a venue by plain SQL, as psql would, and waits until the app follows the catalogue generation it raised. */
async function write(sql: string, ...params: unknown[]) {
  const generation = followed.current();
  expect(await t.db.prisma.$executeRawUnsafe(sql, ...params)).toBe(1);
  await expect.poll(() => followed.current()).toBeGreaterThan(generation);
}

/** Rows of VenueSearchWords and VenueSearchDocument that differ from their venue's words or publication, or lack it. */
const drift = async () =>
  (
    await t.db.readRows<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM "Venue" v FULL JOIN "VenueSearchWords" w ON w.slug = v.slug
                WHERE (v.slug, v.published, v."searchHead", v."searchDocument") IS DISTINCT FROM (w.slug, w.published, w."searchHead", w."searchDocument"))
            + (SELECT count(*)::int FROM "Venue" v FULL JOIN "VenueSearchDocument" d ON d.slug = v.slug
                WHERE (v.slug, v.published, v."searchDocument") IS DISTINCT FROM (d.slug, d.published, d."searchDocument")) AS n`,
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

describe('facets after a catalogue write', () => {
  it('leave out a venue unpublished once the generation has moved, as the total does, by filters or by words', async () => {
    const [state] = (await t.rest('/api/v1/venues?limit=1&facets=state')).body.facets.state as Counted[];
    const before = await search(state.value);
    // The state facet leaves out the state filter: the state's own count is the search's total.
    expect(before.stateCount).toBe(before.total);
    expect(before.venue.amenities.length).toBeGreaterThan(0);

    // The same venue by words: its slug's words, with the state facet, counted over the venues the words match.
    const q = before.venue.slug.split('-').slice(0, 2).join(' ');
    const byWords = async () => {
      const res = await t.rest(`/api/v1/venues?q=${encodeURIComponent(q)}&limit=1&facets=state`);
      expect(res.status, res.text).toBe(200);
      const count = (res.body.facets.state as Counted[]).find((s) => s.value === state.value)?.count ?? 0;
      return { total: res.body.pagination.total_count as number, count };
    };
    const wordsBefore = await byWords();
    expect(wordsBefore.count).toBeGreaterThan(0);

    await write(`UPDATE "Venue" SET published = false WHERE slug = $1`, before.venue.slug);

    const after = await search(state.value);
    expect(after.total).toBe(before.total - 1);
    expect(after.stateCount).toBe(before.stateCount - 1);
    for (const amenity of before.venue.amenities) expect(after.amenities.get(amenity) ?? 0).toBe(before.amenities.get(amenity)! - 1);
    expect(await byWords()).toEqual({ total: wordsBefore.total - 1, count: wordsBefore.count - 1 });
  });
});

/** Discovery's reads of the whole catalogue, by their statements: the words, the cities, the facet columns. */
const CATALOGUE_READS = [
  /FROM "VenueSearchTerm"/,
  /GROUP BY "citySlug"/,
  /v\.amenities\s+FROM "Venue" v LEFT JOIN "VenueSearchDocument" d ON d\.slug = v\.slug WHERE v\.published$/,
];
const isCatalogueRead = (sql: string) => CATALOGUE_READS.some((read) => read.test(sql));

describe("discovery's catalogue reads after a write", () => {
  it('are read again as soon as the node sees the new generation, and the next searches read none of them', async () => {
    const [{ city }] = await t.db.readRows<{ city: string }>(
      `SELECT "citySlug" AS city FROM "Venue" WHERE published AND latitude IS NOT NULL ORDER BY slug LIMIT 1`,
      [],
    );
    const [{ id }] = await t.db.readRows<{ id: string }>(`SELECT id::text FROM "Venue" WHERE published ORDER BY slug DESC LIMIT 1`, []);
    const searches = [`/api/v1/venues?limit=1&q=barn`, `/api/v1/venues?limit=1&near_city=${city}`, `/api/v1/venues?limit=1&facets=amenities`];
    const amenities = async () => {
      const res = await t.rest(`/api/v1/venues?limit=1&facets=amenities`);
      expect(res.status, res.text).toBe(200);
      return new Map((res.body.facets.amenities as Counted[]).map((a) => [a.value, a.count]));
    };
    const statements: string[] = [];
    const stop = t.db.onQuery((event) => statements.push(event.query));
    try {
      // Under the present generation each search reads what it needs itself.
      for (const path of searches) expect((await t.rest(path)).status).toBe(200);
      expect(await amenities()).not.toContain('zephyr-deck');

      statements.length = 0;
      await write(`UPDATE "Venue" SET amenities = array_append(amenities, 'zephyr-deck') WHERE id = $1::uuid`, id);
      await expect.poll(() => CATALOGUE_READS.every((read) => statements.some((sql) => read.test(sql))), { timeout: 10_000 }).toBe(true);

      statements.length = 0;
      for (const path of searches) expect((await t.rest(path)).status).toBe(200);
      // The facet columns read ahead are the new generation's: the amenity written is counted.
      expect((await amenities()).get('zephyr-deck')).toBe(1);
      expect(statements.filter(isCatalogueRead)).toEqual([]);
    } finally {
      stop();
    }
  });

  it('read only what searches asked for', async () => {
    const sent: string[] = [];
    // A reader of its own: its reads are kept apart from the app's.
    const reader: RowReader = (sql, params, options) => {
      sent.push(sql);
      return t.db.readRows(sql, params, options);
    };
    readCatalogueAhead(reader, 1);
    expect(sent).toEqual([]);
    await searchVocabulary(reader, 1);
    expect(sent.filter(isCatalogueRead)).toHaveLength(1);
    sent.length = 0;
    readCatalogueAhead(reader, 2);
    // The words alone, started at once: a search of generation 2 finds them read or under way.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(CATALOGUE_READS[0]);
    await searchVocabulary(reader, 2);
    readCatalogueAhead(reader, 2);
    expect(sent).toHaveLength(1);
  });
});
