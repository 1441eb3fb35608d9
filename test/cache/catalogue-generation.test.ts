// Any committed write to a table a cached answer reads raises the catalogue generation in its own transaction
// (migration catalogue_generation_triggers), so a node following the generation stops serving the earlier answer. The
// writes here are plain SQL, as psql or a future admin path would send them: none goes through the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { Database } from '../../src/db/client.js';
import { followCatalogueGeneration, readCatalogueGeneration, type CatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { createLogger } from '../../src/logging/logger.js';

let db: Database;
let followed: CatalogueGeneration;
let t: TestApp;
const ids: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  // As main.ts does, with a poll of 10 ms instead of 5 s.
  followed = await followCatalogueGeneration(db.prisma, createLogger({ level: 'silent' }), { intervalMs: 10 });
  t = await createTestApp({ database: db, responseCache: { ttlSeconds: 300 }, catalogueGeneration: followed.current });
  const one = async (sql: string) => (await db.prisma.$queryRawUnsafe<{ v: string }[]>(sql))[0].v;
  ids.venue = await one(
    `SELECT slug AS v FROM "Venue" v WHERE published AND EXISTS (SELECT 1 FROM "Testimonial" WHERE "venueId" = v.id) ORDER BY slug LIMIT 1`,
  );
  ids.audVenue = await one(
    `SELECT slug AS v FROM "Venue" WHERE published AND currency = 'AUD' AND "startingTotal" IS NOT NULL ORDER BY slug LIMIT 1`,
  );
  ids.vendor = await one(
    `SELECT slug AS v FROM "Vendor" v WHERE active AND EXISTS (SELECT 1 FROM "VendorPhoto" WHERE "vendorId" = v.id) ORDER BY slug LIMIT 1`,
  );
  ids.post = await one(
    `SELECT p.slug AS v FROM "BlogPost" p JOIN "BlogPostTag" pt ON pt."postId" = p.id WHERE p.status = 'published' AND p."authorSlug" IS NOT NULL ORDER BY p."publishedAt" DESC LIMIT 1`,
  );
  ids.inspiration = await one(`SELECT id::text AS v FROM "InspirationPhoto" ORDER BY position LIMIT 1`);
  ids.amenity = await one(`SELECT amenity AS v FROM "ListedVenueAmenity" GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
  // A word of a published venue's name, as `q` takes it.
  ids.word = await one(
    `SELECT lower(w) AS v FROM (SELECT regexp_split_to_table(name, '[^A-Za-z]+') AS w FROM "Venue" WHERE published ORDER BY slug LIMIT 1) x
     WHERE length(w) >= 4 LIMIT 1`,
  );
});
afterAll(async () => {
  await t.close();
  followed.stop();
  await db.close();
});

const withoutRequestId = (res: TestResponse) => res.text.replace(/"request_id":"[^"]+"/g, '');

/**
 * One catalogue table: a REST read that shows it, and a plain SQL write that changes what that read answers. `key`
 * names the slug or id both are about ({id} in `read`, $1 in `write`).
 */
interface Case {
  table: string;
  key?: string;
  read: string;
  write: string;
}

const CASES: Case[] = [
  { table: 'Venue', key: 'venue', read: '/api/v1/venues/{id}', write: `UPDATE "Venue" SET name = name || ' (edited)' WHERE slug = $1` },
  {
    table: 'VenuePhoto',
    key: 'venue',
    read: '/api/v1/venues/{id}',
    write: `UPDATE "VenuePhoto" SET url = url || '?edited' WHERE "venueId" = (SELECT id FROM "Venue" WHERE slug = $1)`,
  },
  {
    table: 'Testimonial',
    key: 'venue',
    read: '/api/v1/venues/{id}',
    write: `UPDATE "Testimonial" SET review = 'Edited by hand.' WHERE "venueId" = (SELECT id FROM "Venue" WHERE slug = $1)`,
  },
  {
    // Renamed by hand, the name cascades to the venues of that type (ON UPDATE CASCADE).
    table: 'VenuePropertyType',
    key: 'venue',
    read: '/api/v1/venues/{id}',
    write: `UPDATE "VenuePropertyType" SET name = name || ' (edited)' WHERE name = (SELECT "propertyType" FROM "Venue" WHERE slug = $1)`,
  },
  {
    table: 'ListedVenueAmenity',
    key: 'amenity',
    read: '/api/v1/venues?amenities={id}&limit=1',
    write: `DELETE FROM "ListedVenueAmenity" WHERE amenity = $1 AND slug IN (SELECT slug FROM "ListedVenueAmenity" WHERE amenity = $1 ORDER BY slug LIMIT 1)`,
  },
  {
    // Ranked by words alone; every venue with the word taken out of it by hand.
    table: 'VenueSearchWords',
    key: 'word',
    read: '/api/v1/venues?q={id}&sort=relevance&limit=1',
    write: `UPDATE "VenueSearchWords" SET published = false WHERE "searchDocument" @@ $1::tsquery`,
  },
  {
    // Searched by words alone in slug order; as above.
    table: 'VenueSearchDocument',
    key: 'word',
    read: '/api/v1/venues?q={id}&limit=1',
    write: `UPDATE "VenueSearchDocument" SET published = false WHERE "searchDocument" @@ $1::tsquery`,
  },
  {
    table: 'PublishedVenueCount',
    read: '/api/v1/venues?limit=1',
    write: `UPDATE "PublishedVenueCount" SET venues = venues + 1 WHERE amenity = '' AND "otherAmenity" = ''`,
  },
  {
    table: 'ExchangeRate',
    key: 'audVenue',
    read: '/api/v1/venues/{id}',
    // The venue's prices are stored in USD and shown in AUD at the day's rate.
    write: `UPDATE "ExchangeRate" SET rate = rate * 2 WHERE base = 'USD' AND quote = (SELECT currency FROM "Venue" WHERE slug = $1)`,
  },
  {
    table: 'VendorCategory',
    key: 'vendor',
    read: '/api/v1/vendors/categories',
    write: `UPDATE "VendorCategory" SET name = name || ' (edited)' WHERE slug = (SELECT "serviceCategory" FROM "Vendor" WHERE slug = $1)`,
  },
  {
    table: 'Vendor',
    key: 'vendor',
    read: '/api/v1/vendors/{id}',
    write: `UPDATE "Vendor" SET "businessName" = "businessName" || ' (edited)' WHERE slug = $1`,
  },
  {
    table: 'VendorPhoto',
    key: 'vendor',
    read: '/api/v1/vendors/{id}',
    write: `UPDATE "VendorPhoto" SET url = url || '?edited' WHERE "vendorId" = (SELECT id FROM "Vendor" WHERE slug = $1)`,
  },
  {
    table: 'KnowledgeChunk',
    read: '/api/v1/knowledge/search?q=deposit+schedule',
    write: `UPDATE "KnowledgeChunk" SET title = title || ' (edited)'`,
  },
  {
    table: 'InspirationPhoto',
    key: 'inspiration',
    read: '/api/v1/inspiration/{id}',
    write: `UPDATE "InspirationPhoto" SET alt = 'Edited by hand' WHERE id = $1::uuid`,
  },
  {
    table: 'BlogAuthor',
    key: 'post',
    read: '/api/v1/blog/posts/{id}',
    write: `UPDATE "BlogAuthor" SET name = name || ' (edited)' WHERE slug = (SELECT "authorSlug" FROM "BlogPost" WHERE slug = $1)`,
  },
  { table: 'BlogTag', read: '/api/v1/blog/tags', write: `UPDATE "BlogTag" SET name = name || ' (edited)'` },
  { table: 'BlogPost', key: 'post', read: '/api/v1/blog/posts/{id}', write: `UPDATE "BlogPost" SET title = title || ' (edited)' WHERE slug = $1` },
  {
    table: 'BlogPostTag',
    key: 'post',
    read: '/api/v1/blog/posts/{id}',
    write: `DELETE FROM "BlogPostTag" WHERE "postId" = (SELECT id FROM "BlogPost" WHERE slug = $1)`,
  },
];

describe('a plain SQL write to any catalogue table raises the generation', () => {
  it('covers every table a cached answer reads (each has the trigger)', async () => {
    const rows = await db.prisma.$queryRawUnsafe<{ table: string }[]>(
      `SELECT tgrelid::regclass::text AS table FROM pg_trigger WHERE tgname LIKE '%\\_raise\\_catalogue\\_generation' ORDER BY 1`,
    );
    expect(rows.map((r) => r.table.replace(/"/g, '')).sort()).toEqual(CASES.map((c) => c.table).sort());
  });

  it.each(CASES)('$table: the cached answer is retired and the new one served', async ({ table, key, read: template, write }) => {
    const read = key ? template.replace('{id}', encodeURIComponent(ids[key])) : template;
    const first = await t.rest(read);
    expect(first.status, first.text).toBe(200);
    const hit = await t.rest(read);
    expect(hit.headers.get('x-cache'), `${table}: warm`).toBe('HIT');

    const before = await readCatalogueGeneration(db.prisma);
    const changed = await db.prisma.$executeRawUnsafe(write, ...(key ? [ids[key]] : []));
    expect(changed, `${table}: the write changed rows`).toBeGreaterThan(0);
    expect(await readCatalogueGeneration(db.prisma)).toBe(before + 1);

    await expect.poll(() => followed.current()).toBe(before + 1);
    const after = await t.rest(read);
    expect(after.status, after.text).toBe(200);
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect(withoutRequestId(after), `${table}: the answer shows the write`).not.toBe(withoutRequestId(first));
  });
});

describe('one raise per transaction, only when it commits', () => {
  it('a transaction writing several tables raises it once; a rolled-back one leaves it; TRUNCATE raises it', async () => {
    const before = await readCatalogueGeneration(db.prisma);
    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`UPDATE "Vendor" SET tagline = tagline WHERE slug = $1`, ids.vendor);
      await tx.$executeRawUnsafe(`UPDATE "Venue" SET "totalPhotos" = "totalPhotos" WHERE slug = $1`, ids.venue);
      await tx.$executeRawUnsafe(`UPDATE "BlogTag" SET name = name`);
    });
    expect(await readCatalogueGeneration(db.prisma)).toBe(before + 1);

    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE "Vendor" SET tagline = 'never committed' WHERE slug = $1`, ids.vendor);
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await readCatalogueGeneration(db.prisma)).toBe(before + 1);

    await db.prisma.$executeRawUnsafe('TRUNCATE "InspirationPhoto"');
    expect(await readCatalogueGeneration(db.prisma)).toBe(before + 2);
  });

  it('writes outside the catalogue (API keys, inquiries) do not raise it', async () => {
    const before = await readCatalogueGeneration(db.prisma);
    await db.prisma.$executeRawUnsafe(`UPDATE "ApiKey" SET name = name`);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "Inquiry"`);
    expect(await readCatalogueGeneration(db.prisma)).toBe(before);
  });
});
