// Nodes starting together on one PostgreSQL: migrations are applied once, under an advisory lock.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { applyMigrations } from '../../src/db/migrate.js';
import { adminQuery, databaseUrl } from '../support/database.js';
import { repoRoot } from '../support/processes.js';

const postgres = inject('testDatabases').postgres;

describe.skipIf(!postgres)('migrations on PostgreSQL from several nodes at once', () => {
  let name = '';
  afterAll(async () => {
    if (name) await adminQuery(postgres!.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('4 concurrent appliers on an empty database: each migration applied exactly once, no error', async () => {
    name = `${postgres!.clonePrefix}${randomBytes(6).toString('hex')}`;
    await adminQuery(postgres!.adminUrl, `CREATE DATABASE "${name}"`);
    const url = databaseUrl(postgres!.adminUrl, name);
    const results = await Promise.all(Array.from({ length: 4 }, () => applyMigrations({ kind: 'postgres', databaseUrl: url })));
    const folders = readdirSync(`${repoRoot}prisma/migrations`, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    // One node applied them all; the others waited for the lock and found nothing pending.
    expect(results.flatMap((r) => r.applied).sort()).toEqual(folders);
    expect(results.filter((r) => r.applied.length === 0)).toHaveLength(3);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rows = (await client.query('SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY 1 ORDER BY 1')).rows;
    await client.end();
    expect(rows).toEqual(folders.map((migration_name) => ({ migration_name, n: 1 })));
  });
});
