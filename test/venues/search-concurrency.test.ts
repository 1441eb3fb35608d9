// A vendor search's count or category facet runs beside its page, on another pooled connection, when the query selects
// it (with both selected the total is read off the facet: one statement): the search waits for the longest statement,
// not their sum. A venue search's count is a column of its page's own
// statement (venues.queries.ts readSearchPage): one statement. Observed in PostgreSQL itself: with the table locked, every statement
// the request has started waits in pg_stat_activity at once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedNow } from '../../src/pagination/page.js';
import { connectionUrlOf } from '../support/database.js';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';

const adminUrl = process.env.TEST_DATABASE_URL;
let t: TestApp;
let url: string;
beforeAll(async () => {
  if (!adminUrl) return;
  t = await createTestApp();
  url = await connectionUrlOf(t.db, adminUrl);
});
afterAll(() => t?.close());

async function waitingOn(observer: pg.Client, table: string): Promise<number> {
  const { rows } = await observer.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
    [`%"${table}"%`],
  );
  return rows[0].n;
}

/** Sends the request with `table` locked; how many of its statements waited on the lock at once, and the answer. */
async function statementsStartedTogether(table: string, send: () => Promise<TestResponse>): Promise<{ together: number; res: TestResponse }> {
  const locker = new pg.Client({ connectionString: url });
  const observer = new pg.Client({ connectionString: url });
  await Promise.all([locker.connect(), observer.connect()]);
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    const answer = send();
    let together = 0;
    for (let tries = 0; tries < 200 && together === 0; tries++) {
      together = await waitingOn(observer, table);
      if (together === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // A statement started beside the first one is waiting by now; one started after the page cannot be.
    await new Promise((resolve) => setTimeout(resolve, 300));
    together = await waitingOn(observer, table);
    await locker.query('COMMIT');
    return { together, res: await answer };
  } finally {
    await Promise.all([locker.end(), observer.end()]);
  }
}

describe.skipIf(!adminUrl)('a search runs its count and facet beside or in its page (PostgreSQL)', () => {
  it('REST venue search: page and total_count in one statement; the total is right', async () => {
    const { together, res } = await statementsStartedTogether('Venue', () => t.rest('/api/v1/venues?state=texas&limit=5'));
    expect(res.status, res.text).toBe(200);
    expect(together).toBe(1);
    expect(await t.statements(() => t.rest('/api/v1/venues?state=texas&limit=5'))).toBe(2); // the key lookup, the page
    expect(res.body.pagination.total_count).toBe(await t.db.prisma.venue.count({ where: { published: true, stateSlug: 'texas' } }));
  });

  it('REST vendor search: page and category_stats together, total_count read off the facet', async () => {
    const { together, res } = await statementsStartedTogether('Vendor', () => t.rest('/api/v1/vendors?state=texas&limit=5'));
    expect(res.status, res.text).toBe(200);
    expect(together).toBe(2);
    const stats = res.body.category_stats as Record<string, number>;
    expect(Object.values(stats).reduce((a, b) => a + b, 0)).toBe(res.body.pagination.total_count);
  });

  it('GraphQL: totalCount selected directly or through a fragment is read in the page statement', async () => {
    for (const query of [
      '{ venues(first: 3) { totalCount nodes { slug } } }',
      '{ venues(first: 3) { ...counted nodes { slug } } } fragment counted on VenueConnection { totalCount }',
      '{ venues(first: 3) { ... on VenueConnection { totalCount } nodes { slug } } }',
    ]) {
      const { together, res } = await statementsStartedTogether('Venue', () => t.graphql(query));
      expect(res.body.errors, res.text).toBeUndefined();
      expect(together, query).toBe(1);
      expect(await t.statements(() => t.graphql(query)), query).toBe(2);
      expect(res.body.data.venues.totalCount).toBe(await t.db.prisma.venue.count({ where: { published: true } }));
    }
  });

  it('GraphQL: a count or facet not selected, or selected under @include, is not read with the page', async () => {
    for (const [query, together, counted] of [
      ['{ venues(first: 3) { nodes { slug } } }', 1, false],
      ['query($c: Boolean!) { venues(first: 3) { totalCount @include(if: $c) nodes { slug } } }', 1, true],
      ['{ vendors(first: 3) { totalCount nodes { slug } } }', 2, true],
    ] as const) {
      const table = query.includes('vendors') ? 'Vendor' : 'Venue';
      const answer = await statementsStartedTogether(table, () => t.graphql(query, { c: true }));
      expect(answer.res.body.errors, answer.res.text).toBeUndefined();
      expect(answer.together, query).toBe(together);
      const connection = answer.res.body.data.venues ?? answer.res.body.data.vendors;
      expect(connection.totalCount === undefined, query).toBe(!counted);
    }
  });
});

describe('startedNow', () => {
  it('starts the statement at once, hands out the same promise, and leaves no unhandled rejection when nobody asks', async () => {
    let runs = 0;
    const value = startedNow(async () => ++runs);
    expect(runs).toBe(1);
    expect(await value()).toBe(1);
    expect(await value()).toBe(1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      startedNow(() => Promise.reject(new Error('nobody asked')));
      const asked = startedNow(() => Promise.reject(new Error('asked')));
      await expect(asked()).rejects.toThrow('asked');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
