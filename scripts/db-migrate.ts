// Migrations without Prisma's native schema engine (it cannot be downloaded here): see src/db/migrate.ts.
//   npm run db:migrate                      apply pending migrations to DATABASE_URL, else PGlite in DATA_DIR (./.data)
//   npm run db:migrate -- --check           exit 1 unless the migrations reproduce schema.prisma (in-memory PGlite)
//   npm run db:migration:create -- <name>   write prisma/migrations/<timestamp>_<name>/migration.sql from schema.prisma
import { relative } from 'node:path';
import { migrationTargetOf, openDatabase } from '../src/db/client.js';
import { createPGlite } from '../src/db/pglite.js';
import { DataDirLockedError } from '../src/db/data-dir-lock.js';
import { applyMigrations, checkDrift, createMigrationSql } from '../src/db/migrate.js';

const USAGE = 'usage: db-migrate.ts [--check] | --create <name>';

async function apply(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './.data';
  const where = databaseUrl ? `PostgreSQL (${new URL(databaseUrl).pathname.slice(1)})` : `PGlite (${dataDir})`;
  const db = await openDatabase({ databaseUrl, dataDir, migrate: false });
  try {
    const { applied } = await applyMigrations(migrationTargetOf(db));
    if (applied.length === 0) console.log(`${where}: up to date, no migration applied.`);
    else console.log(`${where}: applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`);
    return 0;
  } finally {
    await db.close();
  }
}

async function check(): Promise<number> {
  const pglite = await createPGlite();
  try {
    const { applied } = await applyMigrations({ kind: 'pglite', pglite });
    const drift = await checkDrift({ kind: 'pglite', pglite });
    if (drift.inSync) {
      console.log(`The ${applied.length} migration(s) reproduce schema.prisma.`);
      return 0;
    }
    console.error(`The migrations do not match schema.prisma (run npm run db:migration:create -- <name>):\n${drift.summary}`);
    return 1;
  } finally {
    await pglite.close();
  }
}

async function create(name: string | undefined): Promise<number> {
  if (!name) {
    console.error(USAGE);
    return 2;
  }
  const created = await createMigrationSql(name);
  if (!created) console.log('No changes: the migrations already match schema.prisma.');
  else console.log(`Created ${relative(process.cwd(), created.path)}`);
  return 0;
}

async function main(args: string[]): Promise<number> {
  if (args[0] === '--create') return create(args[1]);
  if (args[0] === '--check') return check();
  if (args.length === 0) return apply();
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Engine errors carry a Rust span trace after the message; the message says what failed and why.
    if (error instanceof DataDirLockedError) console.error(error.message);
    else console.error(`db-migrate: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
