import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { statementNamer, withCustomPlans } from '../../src/db/prepared-statements.js';
import { createTestDatabase, testDatabaseKind } from '../support/database.js';

const onPostgres = testDatabaseKind() === 'postgres';

describe('statement names', () => {
  it('one name per SQL text, the same on every call; texts past the bound run unnamed', () => {
    const name = statementNamer(2);
    const first = name({ sql: 'SELECT 1' });
    expect(first).toMatch(/^wv_\d+$/);
    expect(name({ sql: 'SELECT 1' })).toBe(first);
    const second = name({ sql: 'SELECT 2' });
    expect(second).toMatch(/^wv_\d+$/);
    expect(second).not.toBe(first);
    expect(name({ sql: 'SELECT 3' })).toBeUndefined();
    // Texts named before the bound keep their names.
    expect(name({ sql: 'SELECT 2' })).toBe(second);
  });

  it('custom plans are added to the connection URL after the options it already had', () => {
    const plain = new URL(withCustomPlans('postgres://u@db.example:5432/app'));
    expect(plain.searchParams.get('options')).toBe('-c plan_cache_mode=force_custom_plan');
    const withOwn = new URL(withCustomPlans('postgres://u@db.example:5432/app?options=-c%20statement_timeout%3D5000&sslmode=require'));
    expect(withOwn.searchParams.get('options')).toBe('-c statement_timeout=5000 -c plan_cache_mode=force_custom_plan');
    expect(withOwn.searchParams.get('sslmode')).toBe('require');
    expect(withOwn.pathname).toBe('/app');
  });
});

describe(`prepared statements on the connection (${testDatabaseKind()})`, () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  /** One connection, so the session read back is the one that ran the statements. */
  async function session(preparedStatements: boolean, urlOptions?: string) {
    db = await createTestDatabase({ poolSize: 1, preparedStatements, urlOptions });
    const published = { where: { published: true } };
    const counts = [await db.prisma.venue.count(published), await db.prisma.venue.count(published)];
    const page = await db.prisma.venue.findMany({ ...published, take: 3, orderBy: { slug: 'asc' }, select: { slug: true } });
    const prepared = await db.prisma.$queryRaw<Array<{ name: string; statement: string }>>`
      SELECT name, statement FROM pg_prepared_statements ORDER BY name`;
    const [{ plan_cache_mode: planCacheMode }] = await db.prisma.$queryRaw<Array<{ plan_cache_mode: string }>>`SHOW plan_cache_mode`;
    return { counts, page, prepared, planCacheMode };
  }

  it.skipIf(!onPostgres)('PostgreSQL: each query shape is prepared once under its name and planned per execution', async () => {
    const { counts, page, prepared, planCacheMode } = await session(true);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBe(counts[0]);
    expect(page).toHaveLength(3);
    expect(prepared.every((p) => /^wv_\d+$/.test(p.name))).toBe(true);
    // The count ran twice but was prepared once; the page is a statement of its own.
    expect(prepared.filter((p) => /count/i.test(p.statement) && p.statement.includes('"Venue"'))).toHaveLength(1);
    expect(prepared.filter((p) => /ORDER BY/i.test(p.statement) && p.statement.includes('"Venue"'))).toHaveLength(1);
    expect(planCacheMode).toBe('force_custom_plan');
  });

  it.skipIf(!onPostgres)('PostgreSQL: the URL’s own startup options are kept beside custom plans', async () => {
    await session(true, '-c statement_timeout=4321');
    const [{ statement_timeout: timeout }] = await db!.prisma.$queryRaw<Array<{ statement_timeout: string }>>`SHOW statement_timeout`;
    expect(timeout).toBe('4321ms');
  });

  it('turned off (and always on the embedded database): nothing is prepared, the answers are the same', async () => {
    const on = onPostgres ? await session(true) : null;
    await db?.close();
    const off = await session(false);
    expect(off.prepared).toEqual([]);
    expect(off.planCacheMode).toBe('auto');
    if (on) {
      expect(off.counts).toEqual(on.counts);
      expect(off.page).toEqual(on.page);
    }
  });

  it.skipIf(onPostgres)('embedded database: statements stay unnamed even when asked for (one session behind every connection)', async () => {
    const { prepared, planCacheMode } = await session(true);
    expect(prepared).toEqual([]);
    expect(planCacheMode).toBe('auto');
  });
});
