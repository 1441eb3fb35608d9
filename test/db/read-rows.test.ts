import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { DatabaseReadError } from '../../src/db/row-reader.js';
import { createLogger } from '../../src/logging/logger.js';
import { BASE_URL, createTestApp, type TestApp } from '../support/app.js';
import { testDatabaseKind } from '../support/database.js';

// Database.readRows: the per-request API key lookup goes straight through the pool's driver (docs/performance.md,
// Levers), so it must still be counted, timed and translated like every statement Prisma sends.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe(`Database.readRows (${testDatabaseKind()})`, () => {
  it('returns the rows of one parameterised statement, typed as PostgreSQL gives them', async () => {
    const rows = await t.db.readRows<{ n: number; word: string; flag: boolean }>('SELECT $1::int AS n, $2::text AS word, $1::int > 1 AS flag', [
      2,
      'two',
    ]);
    expect(rows).toEqual([{ n: 2, word: 'two', flag: true }]);
  });

  it("is seen by onQuery's listeners with its SQL, its parameters and a duration, as Prisma's statements are", async () => {
    const seen: Array<{ query: string; params: () => unknown[]; durationMs: number }> = [];
    const stop = t.db.onQuery((event) => seen.push(event));
    try {
      await t.db.readRows('SELECT $1::int AS one', [1]);
      await t.db.prisma.apiKey.findFirst({ where: { prefix: 'wv_live_none0000' } });
    } finally {
      stop();
    }
    expect(seen).toEqual([
      { query: 'SELECT $1::int AS one', params: expect.any(Function), durationMs: expect.any(Number) },
      { query: expect.stringContaining('"ApiKey"'), params: expect.any(Function), durationMs: expect.any(Number) },
    ]);
    expect(seen[0].params()).toEqual([1]);
    expect(seen[1].params()).toContain('wv_live_none0000');
  });

  it('counts the key lookup among a request’s statements: a search is the key, then the page with its count, on both surfaces', async () => {
    expect(await t.statements(() => t.rest('/api/v1/venues?limit=5'))).toBe(2);
    expect(await t.statements(() => t.graphql('{ venues(first: 5) { totalCount nodes { slug } } }'))).toBe(2);
    expect(await t.statements(() => t.graphql('{ venues(first: 5) { nodes { slug } } }'))).toBe(2);
    // A key that is not ours is refused before any statement; a well-formed unknown one costs the lookup alone.
    expect(await t.statements(() => t.rest('/api/v1/venues', { key: 'not-a-key' }))).toBe(0);
    expect(await t.statements(() => t.rest('/api/v1/venues', { key: `wv_live_${'A'.repeat(32)}` }))).toBe(1);
  });

  it('fails as DatabaseReadError, with the driver’s error as its cause', async () => {
    const failure = await t.db.readRows('SELECT * FROM "NoSuchTable"', []).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DatabaseReadError);
    expect(String((failure as Error).cause)).toContain('NoSuchTable');
  });
});

describe('a key lookup that fails', () => {
  it('answers 500 database_error on both surfaces, leaking no SQL', async () => {
    const app = createApp({
      prisma: t.db.prisma,
      readRows: () => Promise.reject(new DatabaseReadError('a read statement failed', { cause: new Error('SELECT hash FROM "ApiKey": timeout') })),
      log: createLogger({ level: 'silent' }),
      baseUrl: BASE_URL,
      cursorSecret: 'x'.repeat(40),
    });
    try {
      const headers = { authorization: `Bearer ${t.keys.partner}` };
      const rest = await app.fetch(new Request(`${BASE_URL}/api/v1/venues?limit=1`, { headers }));
      const restText = await rest.text();
      expect(rest.status).toBe(500);
      expect(JSON.parse(restText).error).toMatchObject({ type: 'internal_error', code: 'database_error' });
      expect(restText).not.toMatch(/SELECT|ApiKey|hash/);
      const gql = await app.fetch(
        new Request(`${BASE_URL}/graphql`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ venues(first: 1) { totalCount } }' }),
        }),
      );
      const gqlText = await gql.text();
      expect(JSON.parse(gqlText).errors[0].extensions).toMatchObject({ code: 'database_error', status: 500 });
      expect(gqlText).not.toMatch(/SELECT|ApiKey|hash/);
    } finally {
      await app.close();
    }
  });
});
