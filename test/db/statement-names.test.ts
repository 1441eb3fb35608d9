// The statements whose plan cannot depend on their values are named prepared statements, so the server parses and
// plans each SQL text once per connection (docs/performance.md, Levers). Which ones is declared where they are
// written (src/db/statement-names.ts), never read back from Prisma's SQL. These tests read what the server actually
// prepared, on PostgreSQL and on an in-memory database with one connection, so a Prisma release that stopped telling
// us which operation sent a statement fails here instead of quietly running every statement unnamed.
import { getVenue, searchVenues } from '../../src/venues/venues.service.js';
import { createCursorCodec } from '../../src/pagination/cursor.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createStatementNames, namingPlugin, plansAlikeForAnyValues, statementName } from '../../src/db/statement-names.js';
import { createTestDatabase, testDatabaseKind } from '../support/database.js';

describe('statement names', () => {
  it("are the text's hash, the same on every call and for every instance, and stop at the bound", () => {
    const names = createStatementNames({ prefix: 'x', max: 2 });
    const a = names.name('SELECT 1');
    expect(a).toMatch(/^wv_x_[0-9a-f]{24}$/);
    expect(a).toBe(statementName('x', 'SELECT 1'));
    expect(names.name('SELECT 1')).toBe(a);
    expect(createStatementNames({ prefix: 'x' }).name('SELECT 1')).toBe(a);
    const b = names.name('SELECT 2');
    expect(b).not.toBe(a);
    // Past the bound a text runs unnamed, and the texts already named keep their names.
    expect(names.name('SELECT 3')).toBeUndefined();
    expect(names.nameOf('SELECT 3')).toBeUndefined();
    expect(names.nameOf('SELECT 2')).toBe(b);
    expect(names.nameOf('SELECT 4')).toBeUndefined();
  });

  it.each([
    ['Venue', 'findUnique', true],
    ['Vendor', 'findUniqueOrThrow', true],
    ['IdempotencyRecord', 'findUnique', true],
    ['BlogPost', 'findMany', true],
    ['InspirationPhoto', 'aggregate', true],
    ['VendorCategory', 'findFirst', true],
    // The catalogue's searches and counts, writes, raw SQL: not.
    ['Venue', 'findMany', false],
    ['Vendor', 'aggregate', false],
    ['Venue', 'findFirst', false],
    ['ExchangeRate', 'findFirst', false],
    ['BlogPost', 'createOne', false],
    ['Venue', 'updateOne', false],
    [undefined, 'queryRaw', false],
  ] as const)('a Prisma %s.%s plans alike for any values: %s', (modelName, action, expected) => {
    expect(plansAlikeForAnyValues({ type: 'single', modelName, action })).toBe(expected);
  });

  it('the Prisma plugin names what its operation admits, not a compacted batch, and adds no comment to the text', () => {
    const names = createStatementNames({ prefix: 'p' });
    const plugin = namingPlugin(names);
    const single = (modelName: string, action: 'findUnique' | 'findMany') => ({ type: 'single' as const, modelName, action, query: {} });
    expect(plugin({ query: single('Venue', 'findUnique'), sql: 'SELECT a' })).toEqual({});
    expect(plugin({ query: single('Venue', 'findMany'), sql: 'SELECT b' })).toEqual({});
    expect(plugin({ query: { type: 'compacted', modelName: 'Vendor', action: 'findUnique', queries: [] }, sql: 'SELECT c' })).toEqual({});
    expect(names.nameOf('SELECT a')).toBe(statementName('p', 'SELECT a'));
    expect(names.nameOf('SELECT b')).toBeUndefined();
    expect(names.nameOf('SELECT c')).toBeUndefined();
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe(`statements as the server sees them (${testDatabaseKind()})`, () => {
  let seeded: Database;
  /** One connection with named statements, so what its session has prepared is what this test sent. */
  let single: Database;
  let firstSlug = '';
  beforeAll(async () => {
    [seeded, single] = await Promise.all([createTestDatabase(), createTestDatabase({ poolSize: 1, preparedStatements: true })]);
    firstSlug = (await seeded.prisma.venue.findFirstOrThrow({ orderBy: { slug: 'asc' }, select: { slug: true } })).slug;
  });
  afterAll(async () => {
    await Promise.all([single?.close(), seeded?.close()]);
  });

  const PREPARED = 'SELECT name, statement FROM pg_prepared_statements';
  /** What the session has prepared, but this very statement (a driver read, itself named where names are on). */
  const prepared = async (db: Database) =>
    (await db.readRows<{ name: string; statement: string }>(PREPARED, [])).filter((s) => s.statement !== PREPARED);
  const cursors = createCursorCodec('statement-names-test-secret-0123456789');

  /** The texts of the statements `run` sent, as the query event saw them. */
  async function textsOf(db: Database, run: () => Promise<unknown>): Promise<string[]> {
    const texts: string[] = [];
    const off = db.onQuery((event) => texts.push(event.query));
    try {
      await run();
    } finally {
      off();
    }
    expect(texts.length).toBeGreaterThan(0);
    return [...new Set(texts)];
  }

  /** Each kind of read twice; the texts of those that should be named, and of those that should not. */
  async function readTwice(db: Database) {
    const named: { prefix: 'p' | 'r'; sql: string }[] = [];
    const unnamed: string[] = [];
    for (let i = 0; i < 2; i++) {
      const unique = await textsOf(db, async () => {
        const venue = await db.prisma.venue.findUnique({
          where: { slug: firstSlug },
          include: { photos: { take: 2, orderBy: { position: 'asc' } } },
        });
        expect(venue?.photos).toHaveLength(2);
      });
      const editorial = await textsOf(db, () => db.prisma.blogTag.findMany({ orderBy: { slug: 'asc' }, take: 3 }));
      const search = await textsOf(db, async () => {
        const page = await db.prisma.venue.findMany({ where: { startingTotal: { gte: 1000 + i } }, take: 2, orderBy: { slug: 'asc' } });
        expect(page).toHaveLength(2);
      });
      const driver = await textsOf(db, async () => {
        expect(await db.readRows<{ n: number }>('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
        expect((await getVenue(firstSlug, db)).slug).toBe(firstSlug);
      });
      // The driver's venue search and its count are planned for their values.
      const driverSearch = await textsOf(db, async () => {
        const page = await searchVenues(
          { priceMin: 1000 + i, first: 2 },
          { slug: true },
          { readRows: db.readRows, cursors, dayRate: async () => null },
        );
        expect(page.nodes).toHaveLength(2);
        expect(await page.totalCount()).toBeGreaterThan(2);
      });
      named.push(...[...unique, ...editorial].map((sql) => ({ prefix: 'p' as const, sql })), ...driver.map((sql) => ({ prefix: 'r' as const, sql })));
      unnamed.push(...search, ...driverSearch);
    }
    return { named, unnamed };
  }

  it('a unique read, a read of curated content and the driver reads are prepared once each, named by their text; searches are not', async () => {
    const { named, unnamed } = await readTwice(single);
    const statements = await prepared(single);
    const byText = new Map(statements.map((s) => [s.statement, s.name]));
    for (const { prefix, sql } of named) expect(byText.get(sql), sql).toBe(statementName(prefix, sql));
    for (const sql of unnamed) expect(byText.has(sql), sql).toBe(false);
    const ours = statements.filter((s) => s.name.startsWith('wv_'));
    expect(new Set(ours.map((s) => s.name)).size).toBe(ours.length);
    expect(new Set(ours.map((s) => s.statement))).toEqual(new Set(named.map((n) => n.sql)));
  });

  it('a statement the server refuses leaves the connection usable, and the text is tried again', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(single.readRows('SELECT * FROM "NoSuchTable"', [])).rejects.toThrow('a read statement failed');
    }
    await readTwice(single);
  });

  it.runIf(adminUrl)('PostgreSQL with preparedStatements: false (DATABASE_PREPARED_STATEMENTS=false): every statement unnamed', async () => {
    const unnamed = await createTestDatabase({ poolSize: 1, preparedStatements: false });
    try {
      await readTwice(unnamed);
      expect(await prepared(unnamed)).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });

  it.runIf(!adminUrl)('embedded: statements stay unnamed by default (every client shares one session, where names would collide)', async () => {
    await readTwice(seeded);
    expect((await prepared(seeded)).filter((s) => s.name.startsWith('wv_'))).toEqual([]);
    await expect(openDatabase({ memory: true, preparedStatements: true })).rejects.toThrow('poolSize: 1');
  });
});
