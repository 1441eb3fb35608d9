// Per-test-file databases cloned from the templates test/support/global-setup.ts builds once per run:
// PGlite loads a dumped data dir (~1 s instead of a 3–7 s initdb); PostgreSQL copies a template database.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { createPGlite } from '../../src/db/pglite.js';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database, type OpenDatabaseOptions } from '../../src/db/client.js';
import type { TestDatabaseTemplates } from './global-setup.js';

/** `postgres://…/test` with another database name. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The URL of a PostgreSQL test database, for a client outside its pool (table locks, pg_stat_activity). */
export async function connectionUrlOf(db: Database, adminUrl: string): Promise<string> {
  const [{ name }] = await db.prisma.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
  return databaseUrl(adminUrl, name);
}

/** One statement on a short-lived connection (CREATE/DROP DATABASE cannot run inside a pooled transaction). */
export async function adminQuery(adminUrl: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const dumps = new Map<string, Promise<Blob>>();

/** Read once per worker process; PGlite only reads the Blob, so every clone can share it. */
function readDump(file: string): Promise<Blob> {
  let dump = dumps.get(file);
  if (!dump) {
    dump = readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)], { type: 'application/x-tar' }));
    dumps.set(file, dump);
  }
  return dump;
}

type Template = 'unmigrated' | 'empty' | 'seeded';

function templates(): TestDatabaseTemplates {
  return inject('testDatabases');
}

/** What a test may choose about its database's pool. */
export type TestDatabaseOptions = Pick<OpenDatabaseOptions, 'poolSize' | 'preparedStatements'>;

async function cloneTemplate(template: Template, options: TestDatabaseOptions = {}): Promise<Database> {
  const { pgliteFiles, postgres } = templates();
  if (!postgres) {
    const file = pgliteFiles[template];
    if (!file) throw new Error(`no ${template} PGlite template in this run`);
    return openDatabase({ memory: true, loadDataDir: await readDump(file), migrate: false, ...options });
  }
  const name = `${postgres.clonePrefix}${randomBytes(6).toString('hex')}`;
  const source = template === 'unmigrated' ? '' : ` TEMPLATE "${postgres.templates[template]}"`;
  const drop = () => adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(postgres.adminUrl, `CREATE DATABASE "${name}"${source}`);
  try {
    const db = await openDatabase({ databaseUrl: databaseUrl(postgres.adminUrl, name), migrate: false, poolSize: 4, ...options });
    const close = db.close.bind(db);
    db.close = async () => {
      try {
        await close();
      } finally {
        await drop();
      }
    };
    return db;
  } catch (error) {
    await drop();
    throw error;
  }
}

/** An isolated database, migrated and seeded with the default catalogue. Close it in afterAll. */
export function createTestDatabase(options?: TestDatabaseOptions): Promise<Database> {
  return cloneTemplate('seeded', options);
}

/** An isolated database, migrated but without a single row. */
export function createEmptyTestDatabase(): Promise<Database> {
  return cloneTemplate('empty');
}

/** An isolated database with no migration applied (migration tests). */
export function createUnmigratedTestDatabase(): Promise<Database> {
  return cloneTemplate('unmigrated');
}

/**
 * A bare PGlite instance (close it yourself), for what runs on PGlite whatever the backend: the schema engine's
 * drift check and migration diff.
 */
export async function createTestPGlite(template: 'unmigrated' | 'empty'): Promise<PGlite> {
  return createPGlite({ loadDataDir: await readDump(templates().pgliteFiles[template]) });
}

/** A PGlite template dump (a `loadDataDir` tarball) for another process to load. */
export function pgliteTemplateFile(template: 'unmigrated' | 'empty'): string {
  return templates().pgliteFiles[template];
}

/** Which backend this run tests: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export function testDatabaseKind(): TestDatabaseTemplates['kind'] {
  return templates().kind;
}
