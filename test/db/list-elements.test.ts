import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationTargetOf, type Database } from '../../src/db/client.js';
import { applyMigrations, MIGRATIONS_DIR, readMigrationList } from '../../src/db/migrate.js';
import { createTestDatabase, createUnmigratedTestDatabase, testDatabaseKind } from '../support/database.js';

// Migration 20261125194500_list_elements_not_null: Prisma's String[] columns, exposed as [String!]! in GraphQL.
const MIGRATION = '20261125194500_list_elements_not_null';
const LIST_COLUMNS: Array<[table: string, column: string, key: string]> = [
  ['Venue', 'categories', 'id'],
  ['Venue', 'amenities', 'id'],
  ['Vendor', 'serviceSubcategories', 'id'],
  ['Vendor', 'serviceAreas', 'id'],
  ['Vendor', 'specialties', 'id'],
  ['KnowledgeChunk', 'tags', 'slug'],
  ['InspirationPhoto', 'styles', 'id'],
  ['InspirationPhoto', 'settings', 'id'],
  ['InspirationPhoto', 'colors', 'id'],
  ['InspirationPhoto', 'moods', 'id'],
];

describe(`list columns hold no NULL element (${testDatabaseKind()})`, () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(LIST_COLUMNS)('%s.%s refuses a NULL element and keeps its row as it was', async (table, column, key) => {
    const [row] = await db.prisma.$queryRawUnsafe<Array<{ id: string; list: string[] }>>(
      `SELECT "${key}"::text AS id, "${column}" AS list FROM "${table}" ORDER BY "${key}" LIMIT 1`,
    );
    expect(row, `${table} is seeded`).toBeDefined();
    await expect(
      db.prisma.$executeRawUnsafe(`UPDATE "${table}" SET "${column}" = array_append("${column}", NULL) WHERE "${key}"::text = $1`, row.id),
    ).rejects.toThrow(`${table}_${column}_no_null_element`);
    const [after] = await db.prisma.$queryRawUnsafe<Array<{ list: string[] }>>(
      `SELECT "${column}" AS list FROM "${table}" WHERE "${key}"::text = $1`,
      row.id,
    );
    expect(after.list).toEqual(row.list);
  });
});

describe(`${MIGRATION} on a database that holds NULL elements (${testDatabaseKind()})`, () => {
  let db: Database;
  let scratch: string;
  beforeAll(async () => {
    db = await createUnmigratedTestDatabase();
    scratch = await mkdtemp(join(tmpdir(), 'wv-list-elements-'));
  });
  afterAll(async () => {
    await db?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('drops them, keeps every other element in order, then refuses new ones', async () => {
    const names = (await readMigrationList()).migrationDirectories.map((d) => d.path);
    expect(names).toContain(MIGRATION);
    // The migrations before this one, then a venue written as raw SQL could write it, then this one.
    const before = join(scratch, 'before');
    await cp(MIGRATIONS_DIR, before, {
      recursive: true,
      filter: (source) => !names.slice(names.indexOf(MIGRATION)).some((later) => source.includes(later)),
    });
    expect(await applyMigrations(migrationTargetOf(db), { migrationsDir: before })).toEqual({ applied: names.slice(0, names.indexOf(MIGRATION)) });
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "Venue" (id, slug, name, city, "citySlug", state, "stateSlug", currency, "minNights", amenities, categories)
       VALUES (gen_random_uuid(), 'us/texas/austin/nulls', 'Nulls', 'Austin', 'austin', 'Texas', 'texas', 'USD', 2,
               ARRAY['pool', NULL, 'hot-tub', NULL]::text[], ARRAY[NULL]::text[])`,
    );

    expect(await applyMigrations(migrationTargetOf(db))).toEqual({ applied: names.slice(names.indexOf(MIGRATION)) });
    const [venue] = await db.prisma.$queryRawUnsafe<Array<{ amenities: string[]; categories: string[] }>>(
      `SELECT amenities, categories FROM "Venue" WHERE slug = 'us/texas/austin/nulls'`,
    );
    expect(venue).toEqual({ amenities: ['pool', 'hot-tub'], categories: [] });
    await expect(
      db.prisma.$executeRawUnsafe(`UPDATE "Venue" SET amenities = ARRAY[NULL]::text[] WHERE slug = 'us/texas/austin/nulls'`),
    ).rejects.toThrow('Venue_amenities_no_null_element');
  });
});
