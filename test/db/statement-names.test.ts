// On PostgreSQL every statement the app sends (Prisma's and the driver reads) is a named prepared statement, so the
// server parses and plans each SQL text once per connection instead of on every execution (docs/performance.md,
// Levers). The names are bounded; the embedded database keeps unnamed statements (one session for every client).
import { getVenue, searchVenues } from '../../src/venues/venues.service.js';
import { createCursorCodec } from '../../src/pagination/cursor.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStatementNames, isUniqueLookup, openDatabase, plansAlikeForAnyValues, type Database } from '../../src/db/client.js';
import { connectionUrlOf, createTestDatabase, testDatabaseKind } from '../support/database.js';

describe('prepared statement names', () => {
  it('name each SQL text once, never give one name to two texts, and stop at the bound', () => {
    const names = createStatementNames({ prefix: 'x', max: 3 });
    const a = names('SELECT 1');
    const b = names('SELECT 2');
    expect(a).toMatch(/^wv_x/);
    expect(names('SELECT 1')).toBe(a);
    expect(b).not.toBe(a);
    const c = names('SELECT 3');
    expect(new Set([a, b, c]).size).toBe(3);
    // Past the bound a text runs unnamed, and the texts already named keep their names.
    expect(names('SELECT 4')).toBeUndefined();
    expect(names('SELECT 4')).toBeUndefined();
    expect(names('SELECT 2')).toBe(b);
  });

  it('name only the texts the eligibility rule admits, deciding once per text', () => {
    let asked = 0;
    const names = createStatementNames({ prefix: 'y', eligible: (sql) => (asked++, sql.includes('ok')) });
    expect(names('SELECT ok')).toMatch(/^wv_y/);
    expect(names('SELECT no')).toBeUndefined();
    expect(names('SELECT no')).toBeUndefined();
    expect(names('SELECT ok')).toBe(names('SELECT ok'));
    expect(asked).toBe(2);
  });

  // Shapes of Prisma 7's statements, as PostgreSQL logged them (relations abbreviated).
  const lateral = `LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__" FROM (SELECT "t3"."__prisma_data__" FROM (SELECT 1) AS "t3" ORDER BY "t3"."position" ASC LIMIT $1 /* middle select */) AS "t4" /* outer select */) AS "Venue_photos" ON true`;
  it.each([
    [
      `SELECT "t0"."id", "Venue_photos"."__prisma_data__" AS "photos", "t0"."slug" FROM "public"."Venue" AS "t0" ${lateral} WHERE ("t0"."slug" = $2 AND "t0"."published" = $3) LIMIT $4`,
      true,
    ],
    [
      `SELECT "t0"."id" FROM "public"."BlogPost" AS "t0" ${lateral} WHERE ("t0"."slug" = $3 AND "t0"."status" = $4 AND "t0"."publishedAt" <= $5) LIMIT $6`,
      true,
    ],
    [`SELECT "t0"."id", "t0"."imageUrl" FROM "public"."InspirationPhoto" AS "t0" WHERE "t0"."id" = $1 LIMIT $2`, true],
    [`SELECT "t0"."id" FROM "public"."Venue" AS "t0" ${lateral} WHERE ("t0"."slug" = $2 AND 1=1) LIMIT $3`, true],
    // A search page, a cursor page, a count, a dated lookup with an order: their plans depend on the values.
    [
      `SELECT "t0"."id" FROM "public"."Venue" AS "t0" WHERE ("t0"."published" = $1 AND "t0"."startingTotal" >= $2) ORDER BY "t0"."slug" ASC LIMIT $3`,
      false,
    ],
    [`SELECT "t0"."id" FROM "public"."Venue" AS "t0" WHERE ("t0"."published" = $1 AND "t0"."slug" > $2) ORDER BY "t0"."slug" ASC LIMIT $3`, false],
    [
      `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."Venue"."id" FROM "public"."Venue" WHERE "public"."Venue"."published" = $1 OFFSET $2) AS "sub"`,
      false,
    ],
    [
      `SELECT "t0"."id" FROM "public"."ExchangeRate" AS "t0" WHERE ("t0"."base" = $1 AND "t0"."quote" = $2 AND "t0"."rateDate" <= $3) ORDER BY "t0"."rateDate" DESC LIMIT $4`,
      false,
    ],
    // A slug that is not unique there, a batch of keys, an offset.
    [`SELECT "t0"."amenity" FROM "public"."ListedVenueAmenity" AS "t0" WHERE "t0"."slug" = $1 LIMIT $2`, false],
    [`SELECT "t0"."id" FROM "public"."Venue" AS "t0" WHERE "t0"."slug" IN ($1,$2) LIMIT $3`, false],
    [`SELECT "t0"."id" FROM "public"."Venue" AS "t0" WHERE "t0"."slug" = $1 LIMIT $2 OFFSET $3`, false],
  ])('a Prisma statement is a unique lookup: %s → %s', (sql, expected) => {
    expect(isUniqueLookup(sql)).toBe(expected);
    if (expected) expect(plansAlikeForAnyValues(sql)).toBe(true);
  });

  it.each([
    // Curated content: lists and counts too.
    [
      `SELECT "t0"."id", "BlogPost_tags"."__prisma_data__" AS "tags" FROM "public"."BlogPost" AS "t0" ${lateral} WHERE ("t0"."status" = $3 AND "t0"."publishedAt" <= $4) ORDER BY "t0"."publishedAt" DESC, "t0"."slug" ASC LIMIT $5 OFFSET $6`,
      true,
    ],
    [
      `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."InspirationPhoto"."id" FROM "public"."InspirationPhoto" WHERE 1=1 OFFSET $1) AS "sub"`,
      true,
    ],
    [`SELECT "t0"."id", "t0"."position" FROM "public"."InspirationPhoto" AS "t0" WHERE 1=1 ORDER BY "t0"."position" ASC LIMIT $1 OFFSET $2`, true],
    // The catalogue's searches and counts: not.
    [
      `SELECT "t0"."id" FROM "public"."Venue" AS "t0" WHERE ("t0"."published" = $1 AND "t0"."startingTotal" >= $2) ORDER BY "t0"."slug" ASC LIMIT $3`,
      false,
    ],
    [
      `SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."Vendor"."id" FROM "public"."Vendor" WHERE "public"."Vendor"."active" = $1 OFFSET $2) AS "sub"`,
      false,
    ],
    [
      `SELECT "t0"."id" FROM "public"."ExchangeRate" AS "t0" WHERE ("t0"."base" = $1 AND "t0"."quote" = $2) ORDER BY "t0"."rateDate" DESC LIMIT $3`,
      false,
    ],
  ])('a Prisma statement plans alike for any values: %s → %s', (sql, expected) => {
    expect(plansAlikeForAnyValues(sql)).toBe(expected);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe(`statements as the server sees them (${testDatabaseKind()})`, () => {
  let seeded: Database;
  /** One connection, so what it has prepared is what this test sent. */
  let single: Database;
  beforeAll(async () => {
    seeded = await createTestDatabase();
    single = adminUrl ? await openDatabase({ databaseUrl: await connectionUrlOf(seeded, adminUrl), migrate: false, poolSize: 1 }) : seeded;
  });
  afterAll(async () => {
    if (single !== seeded) await single.close();
    await seeded.close();
  });

  const prepared = () => single.readRows<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements', []);
  const readTwice = async () => {
    for (let i = 0; i < 2; i++) {
      const venue = await single.prisma.venue.findUnique({ where: { slug: slug() }, include: { photos: { take: 2, orderBy: { position: 'asc' } } } });
      expect(venue?.photos).toHaveLength(2);
      const page = await single.prisma.venue.findMany({ where: { startingTotal: { gte: 1000 + i } }, take: 2, orderBy: { slug: 'asc' } });
      expect(page).toHaveLength(2);
      expect(await single.readRows<{ n: number }>('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
      // The driver's venue detail is named; its search and count, planned for their values, are not.
      expect((await getVenue(slug(), single)).slug).toBe(slug());
      const search = await searchVenues(
        { priceMin: 1000 + i, first: 2 },
        { slug: true },
        { readRows: single.readRows, cursors, dayRate: async () => null },
      );
      expect(search.nodes).toHaveLength(2);
      expect(await search.totalCount()).toBeGreaterThan(2);
    }
  };
  const cursors = createCursorCodec('statement-names-test-secret-0123456789');
  let firstSlug = '';
  const slug = () => firstSlug;
  beforeAll(async () => {
    firstSlug = (await seeded.prisma.venue.findFirstOrThrow({ orderBy: { slug: 'asc' }, select: { slug: true } })).slug;
  });

  it.runIf(adminUrl)('PostgreSQL: a unique lookup and a driver read are each prepared once, by name; a search is not', async () => {
    await readTwice();
    const statements = await prepared();
    const ours = statements.filter((s) => s.name.startsWith('wv_'));
    const venueReads = ours.filter((s) => s.statement.includes('FROM "public"."Venue"'));
    expect(venueReads).toHaveLength(1);
    expect(venueReads[0].statement).toContain('"t0"."slug" = $');
    expect(ours.filter((s) => s.statement.includes('"startingTotal" >='))).toEqual([]);
    expect(ours.filter((s) => s.statement === 'SELECT $1::int + 1 AS n')).toHaveLength(1);
    expect(ours.filter((s) => s.statement.includes('FROM "Venue" v WHERE v.slug = $1'))).toHaveLength(1);
    expect(statements.filter((s) => s.statement.includes('"startingTotal" >='))).toEqual([]);
    expect(new Set(ours.map((s) => s.name)).size).toBe(ours.length);
  });

  it.runIf(adminUrl)('PostgreSQL with preparedStatements: false (DATABASE_PREPARED_STATEMENTS=false): every statement unnamed', async () => {
    const unnamed = await openDatabase({
      databaseUrl: await connectionUrlOf(seeded, adminUrl!),
      migrate: false,
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      await unnamed.prisma.venue.findUnique({ where: { slug: slug() } });
      await unnamed.readRows('SELECT $1::int AS n', [1]);
      expect(await unnamed.readRows('SELECT name FROM pg_prepared_statements', [])).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });

  it.runIf(adminUrl)('PostgreSQL: a statement the server refuses leaves the connection usable, and the text is tried again', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(single.readRows('SELECT * FROM "NoSuchTable"', [])).rejects.toThrow('a read statement failed');
    }
    await readTwice();
  });

  it.runIf(!adminUrl)('embedded: statements stay unnamed (every client shares one session, where names would collide)', async () => {
    await readTwice();
    expect((await prepared()).filter((s) => s.name.startsWith('wv_'))).toEqual([]);
  });
});
