// Builds the test database templates once per vitest run; test/support/database.ts clones them per test file.
// Backend: PostgreSQL when TEST_DATABASE_URL is set (an admin connection able to CREATE DATABASE), else PGlite.
import { skipReport } from './requirements.js';
import { findLogLeaks } from './run-log.js';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { migrationTargetOf, openDatabase, type Database } from '../../src/db/client.js';
import { isAlive } from '../../src/db/data-dir-lock.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { seedCatalogue, settleAfterBulkLoad } from '../../src/db/seed/catalogue.js';
import { seedContent } from '../../src/content/content.seed.js';
import { adminQuery, databaseUrl } from './database.js';

export interface PostgresTemplates {
  adminUrl: string;
  /** Databases `CREATE DATABASE … TEMPLATE` copies: migrated, and migrated + seeded. */
  templates: { empty: string; seeded: string };
  /** Prefix of every database cloned during this run, so teardown (or the next run) can drop leftovers. */
  clonePrefix: string;
}

/** What the templates are and where, handed to the test workers through vitest's provide/inject. */
export interface TestDatabaseTemplates {
  kind: 'pglite' | 'postgres';
  /**
   * `dumpDataDir()` tarballs of a PGlite database with no migration, migrated, and migrated + seeded (PGlite runs
   * only). Built on PostgreSQL runs too: drift checks, migration diffs and DATA_DIR tests run on PGlite regardless.
   */
  pgliteFiles: { unmigrated: string; empty: string; seeded?: string };
  /** Set on PostgreSQL runs. */
  postgres?: PostgresTemplates;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabases: TestDatabaseTemplates;
  }
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

async function timed<T>(label: string, build: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await build();
  console.log(`[global-setup] ${label} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

async function seed(db: Database): Promise<void> {
  await seedCatalogue(db.prisma);
  await seedContent(db.prisma);
  // As a first start leaves the database (src/main.ts), so query plans match.
  await settleAfterBulkLoad(db.prisma);
}

async function buildPGliteTemplates(dir: string, seeded: boolean): Promise<TestDatabaseTemplates['pgliteFiles']> {
  const root = join(dir, '..');
  // Dumps (~180 MB each) and captured logs of runs that were killed before their teardown.
  for (const entry of await readdir(root).catch(() => [])) {
    const pid = Number(/^test-(?:db|logs)-(\d+)$/.exec(entry)?.[1]);
    if (pid && !isAlive(pid)) await rm(join(root, entry), { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  const files = {
    unmigrated: join(dir, 'unmigrated.tar'),
    empty: join(dir, 'empty.tar'),
    seeded: seeded ? join(dir, 'seeded.tar') : undefined,
  };
  const db = await openDatabase({ memory: true, migrate: false });
  try {
    const target = migrationTargetOf(db);
    if (target.kind !== 'pglite') throw new Error('expected PGlite');
    // Uncompressed: clones load as fast as from gzip, and dumping is 4x faster (0.3 s against 1.3 s when seeded).
    const dump = async (file: string) => writeFile(file, new Uint8Array(await (await target.pglite.dumpDataDir('none')).arrayBuffer()));
    await dump(files.unmigrated);
    await applyMigrations(target);
    await dump(files.empty);
    if (files.seeded) {
      await seed(db);
      await dump(files.seeded);
    }
  } finally {
    await db.close();
  }
  return files;
}

async function buildPostgresTemplates(adminUrl: string): Promise<{ templates: PostgresTemplates; dropAll: () => Promise<void> }> {
  // Databases of runs that were killed before their teardown: their vitest process no longer runs.
  const existing = await adminQuery(adminUrl, `SELECT datname FROM pg_database WHERE datname ~ '^wv_(tpl|t)_[0-9]+'`);
  for (const { datname } of existing.rows as { datname: string }[]) {
    const pid = Number(/^wv_(?:tpl|t)_(\d+)/.exec(datname)?.[1]);
    if (!isAlive(pid)) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
  const templates = { empty: `wv_tpl_${process.pid}_empty`, seeded: `wv_tpl_${process.pid}` };
  const clonePrefix = `wv_t_${process.pid}_`;
  const dropAll = async () => {
    const ours = await adminQuery(
      adminUrl,
      `SELECT datname FROM pg_database
       WHERE datname IN ('${templates.empty}', '${templates.seeded}') OR starts_with(datname, '${clonePrefix}')`,
    );
    for (const { datname } of ours.rows as { datname: string }[]) {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  };
  try {
    await adminQuery(adminUrl, `CREATE DATABASE "${templates.empty}"`);
    await (await openDatabase({ databaseUrl: databaseUrl(adminUrl, templates.empty) })).close();
    await adminQuery(adminUrl, `CREATE DATABASE "${templates.seeded}" TEMPLATE "${templates.empty}"`);
    const db = await openDatabase({ databaseUrl: databaseUrl(adminUrl, templates.seeded), migrate: false });
    try {
      await seed(db);
    } finally {
      await db.close();
    }
  } catch (error) {
    await dropAll();
    throw error;
  }
  return { templates: { adminUrl, templates, clonePrefix }, dropAll };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const skips = skipReport();
  for (const line of skips) console.log(line);
  const dumpDir = join(repoRoot, '.tmp', `test-db-${process.pid}`);
  const removeDumps = () => rm(dumpDir, { recursive: true, force: true });
  // Tests run `npm start` and `npm run keys`, which run dist/: bring it up to date once here, not in parallel there.
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  // Concurrent on PostgreSQL runs: the server does most of that work while PGlite keeps this process busy.
  const [pgliteFiles, postgres] = await Promise.all([
    timed('PGlite templates', () => buildPGliteTemplates(dumpDir, !adminUrl)),
    adminUrl ? timed('PostgreSQL templates', () => buildPostgresTemplates(adminUrl)) : undefined,
  ]).catch(async (error: unknown) => {
    await removeDumps();
    throw error;
  });
  const runLogDir = join(repoRoot, '.tmp', `test-logs-${process.pid}`);
  await mkdir(runLogDir, { recursive: true });
  project.provide('runLogDir', runLogDir);
  project.provide('testDatabases', {
    kind: postgres ? 'postgres' : 'pglite',
    pgliteFiles,
    postgres: postgres?.templates,
  });
  return async () => {
    await Promise.all([removeDumps(), postgres?.dropAll()]);
    // No PII in logs (issue 11): every line every test app and server process logged in this run, scanned once.
    const { leaks, lines } = findLogLeaks(runLogDir);
    await rm(runLogDir, { recursive: true, force: true });
    // Again after the last file, where a reader of the summary looks.
    for (const line of skips) console.log(line);
    console.log(`[log scan] ${lines} captured log lines, ${leaks.length ? `${leaks.length} leaking` : 'no key, e-mail, phone or inquiry field'}`);
    if (leaks.length) {
      // vitest reports an error thrown here but still exits 0: the exit code is set too, so the run fails.
      process.exitCode = 1;
      throw new Error(`captured logs of this run leak PII or keys:\n${leaks.join('\n')}`);
    }
  };
}
