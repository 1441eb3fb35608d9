import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationTargetOf, type Database } from '../../src/db/client.js';
import { applyMigrations, checkDrift, createMigrationSql, MIGRATIONS_DIR, readMigrationList, SCHEMA_PATH } from '../../src/db/migrate.js';
import { createTestPGlite, createUnmigratedTestDatabase, testDatabaseKind } from '../support/database.js';

const migrationNames = (await readMigrationList()).migrationDirectories.map((directory) => directory.path);
const schema = await readFile(SCHEMA_PATH, 'utf8');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'wv-migrations-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A copy of prisma/migrations under the scratch dir, plus `extra` migrations ({ folder: sql }). */
async function migrationsWith(name: string, extra: Record<string, string>): Promise<string> {
  const dir = join(scratch, name);
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const [folder, sql] of Object.entries(extra)) {
    await mkdir(join(dir, folder), { recursive: true });
    await writeFile(join(dir, folder, 'migration.sql'), sql);
  }
  return dir;
}

/** schema.prisma edited by `edit`, written under the scratch dir. */
async function schemaWith(name: string, edit: (text: string) => string): Promise<string> {
  const path = join(scratch, `${name}.prisma`);
  const edited = edit(schema);
  expect(edited).not.toBe(schema);
  await writeFile(path, edited);
  return path;
}

describe(`applying migrations (${testDatabaseKind()})`, () => {
  let db: Database;
  beforeAll(async () => {
    db = await createUnmigratedTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('applies every migration to a fresh database, then nothing on a rerun', async () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(await applyMigrations(migrationTargetOf(db))).toEqual({ applied: migrationNames });
    expect(await applyMigrations(migrationTargetOf(db))).toEqual({ applied: [] });
    expect(await db.prisma.venue.count()).toBe(0);
  });

  it('records a failing migration as failed, rolls back its statements and refuses to go on', async () => {
    const broken = '29991231000000_broken';
    // The column comes first: it must not survive the failure (one implicit transaction on both backends).
    const dir = await migrationsWith('broken', {
      [broken]: 'ALTER TABLE "Venue" ADD COLUMN "doomed" INTEGER;\nSELECT * FROM "NoSuchTable";\n',
    });
    await expect(applyMigrations(migrationTargetOf(db), { migrationsDir: dir })).rejects.toThrow(/NoSuchTable/);

    const rows = await db.prisma.$queryRawUnsafe<{ finished: boolean; logs: string | null }[]>(
      `SELECT finished_at IS NOT NULL AS finished, logs FROM _prisma_migrations WHERE migration_name = '${broken}'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].finished).toBe(false);
    expect(rows[0].logs).toContain('NoSuchTable');
    const doomed = await db.prisma.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'Venue' AND column_name = 'doomed'`,
    );
    expect(doomed).toEqual([]);

    // The fast path must not mistake a failed migration for a pending one that is fine to skip.
    await expect(applyMigrations(migrationTargetOf(db), { migrationsDir: dir })).rejects.toThrow(/failed migrations/);
  });
});

// The engine cannot introspect PostgreSQL through adapter-pg (src/db/migrate.ts), so drift runs on PGlite; both
// backends replay the same migration files.
describe('schema drift (PGlite)', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await createTestPGlite('empty');
  });
  afterAll(async () => {
    await pglite?.close();
  });

  it('finds no difference between the migrated database and schema.prisma', async () => {
    expect(await checkDrift({ kind: 'pglite', pglite })).toEqual({ inSync: true, summary: 'No difference detected.' });
  });

  it('reports a model missing from schema.prisma', async () => {
    const schemaPath = await schemaWith('no-app-secret', (text) => text.replace(/\nmodel AppSecret \{[^}]*\}\n/, '\n'));
    const drift = await checkDrift({ kind: 'pglite', pglite }, { schemaPath });
    expect(drift.inSync).toBe(false);
    expect(drift.summary).toMatch(/Removed tables[\s\S]*AppSecret/);
  });

  // Last in this block: it alters the shared database (a clone would cost a dump and a load, 1–2 s).
  it('reports a column missing from the database', async () => {
    await pglite.exec('ALTER TABLE "Venue" DROP COLUMN "bedrooms"');
    const drift = await checkDrift({ kind: 'pglite', pglite });
    expect(drift.inSync).toBe(false);
    expect(drift.summary).toContain('Added column `bedrooms`');
  });
});

describe('creating a migration', () => {
  let shadow: PGlite;
  beforeAll(async () => {
    shadow = await createTestPGlite('unmigrated');
  });
  afterAll(async () => {
    await shadow?.close();
  });

  it('writes what schema.prisma adds to the migrations, then nothing once it is there', async () => {
    const migrationsDir = await migrationsWith('create', {});
    const schemaPath = await schemaWith('nickname', (text) =>
      text.replace('  name              String\n', '  name              String\n  nickname          String?\n'),
    );
    const options = { migrationsDir, schemaPath, shadow, now: new Date('2999-01-02T03:04:05Z') };

    const created = await createMigrationSql('Add venue nickname', options);
    expect(created?.name).toBe('29990102030405_add_venue_nickname');
    expect(created?.sql).toMatch(/ALTER TABLE "Venue" ADD COLUMN\s+"nickname" TEXT;/);
    expect(await readFile(join(migrationsDir, created!.name, 'migration.sql'), 'utf8')).toBe(created?.sql);

    expect(await createMigrationSql('again', options)).toBeNull();
  });
});
