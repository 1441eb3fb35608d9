import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, BASE_URL, type TestApp } from '../support/app.js';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { DatabaseReadError, type RowReader } from '../../src/db/row-reader.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('request ids and envelopes (§1, §7)', () => {
  it('puts the request id in the body and the X-Request-Id header, keeping a safe client id', async () => {
    const res = await t.rest('/api/v1/venues?limit=1');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    const mine = await t.rest('/api/v1/venues?limit=1', { headers: { 'x-request-id': 'client-trace-1234' } });
    expect(mine.headers.get('x-request-id')).toBe('client-trace-1234');
    const unsafe = await t.rest('/api/v1/venues?limit=1', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_/);
    expect(t.logs.some((l) => l.includes('"requestId":"client-trace-1234"'))).toBe(true);
  });

  it('answers unknown paths and methods with 404 route_not_found and a hint', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['GET', '/nope'],
      ['POST', '/api/v1/venues'],
      ['DELETE', '/api/v1/vendors'],
      ['GET', '/api/v2/venues'],
    ]) {
      const res = await t.rest(path, { method });
      expectRestError(res, 404, 'route_not_found');
      expect(res.body.error.hint).toContain('/api/v1');
    }
  });

  it('reports a database failure as 500 database_error and anything else as internal_error, leaking nothing', async () => {
    // Venue search reads through the driver, vendor search through Prisma, a vendor category filter through Prisma too.
    const prismaFailure = () =>
      Promise.reject(Object.assign(new Error('SELECT secret FROM "Vendor" failed: relation missing'), { name: 'PrismaClientKnownRequestError' }));
    const failing = new Proxy(t.db.prisma, {
      get(target, prop, receiver) {
        if (prop === 'vendor') return new Proxy(target.vendor, { get: (v, p) => (p === 'findMany' ? prismaFailure : Reflect.get(v, p)) });
        if (prop === 'vendorCategory') {
          return new Proxy(target.vendorCategory, {
            get: (v, p) => (p === 'findMany' ? () => Promise.reject(new TypeError('cannot read x of undefined')) : Reflect.get(v, p)),
          });
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const readRows: RowReader = (sql, params, options) =>
      sql.includes('FROM "Venue" v')
        ? Promise.reject(new DatabaseReadError('a read statement failed', { cause: new Error('SELECT secret FROM "Venue" failed') }))
        : t.db.readRows(sql, params, options);
    const app = createApp({
      prisma: failing,
      readRows,
      log: createLogger({ level: 'silent' }),
      baseUrl: BASE_URL,
      cursorSecret: 'x'.repeat(40),
    });
    const call = (path: string) => app.fetch(new Request(`${BASE_URL}${path}`, { headers: { authorization: `Bearer ${t.keys.partner}` } }));
    for (const path of ['/api/v1/venues', '/api/v1/vendors']) {
      const db = await call(path);
      const dbBody = await db.text();
      expect(db.status, path).toBe(500);
      expect(JSON.parse(dbBody).error).toMatchObject({ type: 'internal_error', code: 'database_error', hint: expect.any(String) });
      expect(dbBody).not.toMatch(/SELECT|secret|Prisma/);
    }
    const other = await call('/api/v1/vendors?category=florists');
    const otherBody = await other.text();
    expect(other.status).toBe(500);
    expect(JSON.parse(otherBody).error.code).toBe('internal_error');
    expect(otherBody).not.toContain('undefined');
    const gql = await app.fetch(
      new Request(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.keys.partner}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ venues { totalCount } }' }),
      }),
    );
    const gqlText = await gql.text();
    expect(JSON.parse(gqlText).errors[0].extensions).toMatchObject({ code: 'database_error', status: 500 });
    expect(gqlText).not.toMatch(/SELECT|secret|stack/);
  });

  it('refuses an oversized GraphQL body with 413 before parsing it', async () => {
    const big = JSON.stringify({ query: `{ venues(first: 1) { totalCount } } #${'x'.repeat(70 * 1024)}` });
    const res = await t.app.fetch(
      new Request(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.keys.partner}`, 'content-type': 'application/json' },
        body: big,
      }),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].extensions.code).toBe('payload_too_large');
  });
});

describe('the request scope (what the HTTP layer reads back after serving)', () => {
  it('keeps each GraphQL answer its own request id, cache verdict and errors while REST and GraphQL requests interleave', async () => {
    // Each GraphQL answer's errors are formatted with the scope of the request it answers (useCatalogueErrors, found by
    // its Request): errors formatted while others start and finish must still name their own request.
    // GET, so that a clean answer is a cacheable catalogue read and one with field errors is not.
    const graphqlGet = (query: string, id: string) =>
      t.rest(`/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/graphql-response+json', 'x-request-id': id } });
    const failing = (i: number) => graphqlGet(`{ venue(slug: "texas/austin/nope-${i}") { slug } }`, `gql-failing-${i}00`);
    const fine = (i: number) => graphqlGet('{ venues(first: 1) { totalCount } }', `gql-fine-${i}0000`);
    const rest = (i: number) => t.rest('/api/v1/venues?limit=1', { headers: { 'x-request-id': `rest-read-${i}000` } });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => [failing(i), fine(i), rest(i)]).flat());
      for (const res of answers) {
        const id = res.headers.get('x-request-id')!;
        if (id.startsWith('gql-failing')) {
          expectGraphQLError(res, 'venue_not_found', 'slug');
          // A 200 with field errors is not a catalogue read to keep (answeredWithErrors).
          expect(res.headers.get('cache-control'), id).toBe('no-store');
        } else if (id.startsWith('gql-fine')) {
          expect(res.body.errors, id).toBeUndefined();
          expect(res.headers.get('cache-control'), id).toBe('private, max-age=300');
        } else {
          expect(res.body.request_id, id).toBe(id);
          expect(res.headers.get('cache-control'), id).toBe('private, max-age=300');
        }
      }
    }
    // After every GraphQL request has finished (the store switched off), the next one still names itself.
    expectGraphQLError(await failing(99), 'venue_not_found', 'slug');
  });
});

describe('keyless endpoints', () => {
  it('GET /healthz reports whether the database answers', async () => {
    const up = await t.app.fetch(new Request(`${BASE_URL}/healthz`));
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'ok', database: 'up' });
    const app = createApp({
      prisma: t.db.prisma,
      readRows: t.db.readRows,
      log: createLogger({ level: 'silent' }),
      baseUrl: BASE_URL,
      cursorSecret: 'x'.repeat(40),
      databaseAnswers: async () => false,
    });
    const down = await app.fetch(new Request(`${BASE_URL}/healthz`));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', database: 'down' });
  });

  it('serves GraphiQL without a key, with no external assets', async () => {
    const res = await t.app.fetch(new Request(`${BASE_URL}/graphql`, { headers: { accept: 'text/html' } }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('GraphiQL');
    expect(html).not.toMatch(/<script[^>]+src="https?:|<link[^>]+href="https?:/);
  });

  it('answers CORS preflights and exposes the rate limit and request id headers', async () => {
    const pre = await t.app.fetch(
      new Request(`${BASE_URL}/api/v1/venues`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-service-key' },
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toBe('x-service-key');
    const res = await t.rest('/api/v1/venues?limit=1', { headers: { origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });
});
