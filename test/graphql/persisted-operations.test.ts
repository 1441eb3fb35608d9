import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPersistedOperations } from '../../src/graphql/persisted-operations.js';
import { parseEnv } from '../../src/config/env.js';
import { startServer } from '../support/processes.js';
import { BASE_URL, createTestApp, expectGraphQLError, type TestApp, type TestResponse } from '../support/app.js';

const MANIFEST = fileURLToPath(new URL('../../examples/frontend/generated/persisted-documents.json', import.meta.url));
const documents = loadPersistedOperations(MANIFEST);
/** The manifest's hash (bare hex, as Apollo-style clients send it) of the operation with this name. */
const hashOf = (name: string) => {
  const found = [...documents].find(([, text]) => new RegExp(`(^|\\s)(query|mutation) ${name}\\b`).test(text));
  if (!found) throw new Error(`no persisted operation ${name}`);
  return found[0];
};
const persisted = (name: string) => ({ persistedQuery: { version: 1, sha256Hash: hashOf(name) } });
const UNKNOWN = { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } };
const SEARCH_VARIABLES = { first: 3, state: 'California' };

async function send(t: TestApp, body: Record<string, unknown>, init: { key?: string | null } = {}): Promise<TestResponse> {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'application/graphql-response+json' });
  const key = init.key === undefined ? t.keys.partner : init.key;
  if (key) headers.set('authorization', `Bearer ${key}`);
  const response = await t.app.fetch(new Request(`${BASE_URL}/graphql`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return toResponse(response);
}

async function sendGet(t: TestApp, params: Record<string, unknown>): Promise<TestResponse> {
  const search = new URLSearchParams(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  const headers = { accept: 'application/graphql-response+json', authorization: `Bearer ${t.keys.partner}` };
  return toResponse(await t.app.fetch(new Request(`${BASE_URL}/graphql?${search}`, { headers })));
}

async function toResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

const context = (res: TestResponse) => `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 500)}`;

describe('persisted operations (examples/frontend manifest), documents as text still allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ persistedOperations: { documents } });
  });
  afterAll(() => t.close());

  it('a venue search by hash answers, by POST and by GET, what the full document answers', async () => {
    const full = await send(t, { query: documents.get(hashOf('VenueSearch')), variables: SEARCH_VARIABLES });
    expect(full.status, context(full)).toBe(200);
    expect(full.body.errors, context(full)).toBeUndefined();
    expect(full.body.data.venues.nodes.length).toBeGreaterThan(0);

    const post = await send(t, { extensions: persisted('VenueSearch'), variables: SEARCH_VARIABLES });
    expect(post.status, context(post)).toBe(200);
    expect(post.body, context(post)).toEqual(full.body);

    const get = await sendGet(t, { extensions: persisted('VenueSearch'), variables: SEARCH_VARIABLES });
    expect(get.status, context(get)).toBe(200);
    expect(get.body, context(get)).toEqual(full.body);
    // A persisted GET is a catalogue read like any other: counted against the key, cacheable for §8.10's 5 minutes.
    expect(get.headers.get('x-ratelimit-remaining'), context(get)).not.toBeNull();
    expect(get.headers.get('cache-control')).toBe('private, max-age=300');
    expect(get.headers.get('etag')).toBeTruthy();
  });

  it('takes the hash with its sha256: prefix too (the manifest key, as the client preset puts it in __meta__.hash)', async () => {
    const res = await send(t, { extensions: { persistedQuery: { version: 1, sha256Hash: `sha256:${hashOf('VendorCategories')}` } } });
    expect(res.body.errors, context(res)).toBeUndefined();
    expect(res.body.data.vendorCategories.length).toBeGreaterThan(0);
  });

  it('an unknown hash is persisted_query_not_found, by POST and by GET', async () => {
    const post = await send(t, { extensions: UNKNOWN });
    expect(post.status, context(post)).toBe(404);
    expectGraphQLError(post, 'persisted_query_not_found');
    expect(post.body.data, context(post)).toBeUndefined();
    const get = await sendGet(t, { extensions: UNKNOWN });
    expect(get.status, context(get)).toBe(404);
    expectGraphQLError(get, 'persisted_query_not_found');
  });

  it('neither a document nor a hash is still invalid_graphql_request (400)', async () => {
    const res = await send(t, { variables: {} });
    expect(res.status, context(res)).toBe(400);
    expectGraphQLError(res, 'invalid_graphql_request');
  });

  it('a mutation by hash over GET is refused with 405 method_not_allowed, as the same mutation sent as text is', async () => {
    const variables = {
      input: {
        propertySlug: 'any',
        guestName: 'A',
        guestEmail: 'a@example.com',
        startDate: '2027-06-01',
        endDate: '2027-06-03',
        eventGuests: 50,
        smsConsent: false,
      },
    };
    const res = await sendGet(t, { extensions: persisted('SendVenueInquiry'), variables });
    expect(res.status, context(res)).toBe(405);
    expectGraphQLError(res, 'method_not_allowed');
    const count = await t.db.prisma.inquiry.count();
    expect(count).toBe(0);
  });

  it('still needs a key: a hash without one is missing_api_key (401)', async () => {
    const res = await send(t, { extensions: persisted('VenueSearch') }, { key: null });
    expect(res.status, context(res)).toBe(401);
    expectGraphQLError(res, 'missing_api_key');
  });

  it('every query of the manifest runs by hash without a request-level refusal (bounds, validation)', async () => {
    const variables: Record<string, Record<string, unknown>> = {
      VenueDetail: { slug: 'no-such-venue' },
      VendorDetail: { slug: 'no-such-vendor' },
      BlogPost: { slug: 'no-such-post' },
      KnowledgeSearch: { q: 'how many guests fit' },
      RegionalCostRange: { state: 'Texas' },
    };
    for (const text of documents.values()) {
      const [, kind, name] = /(?:^|\s)(query|mutation) (\w+)/.exec(text)!;
      if (kind === 'mutation') continue;
      const res = await send(t, { extensions: persisted(name), variables: variables[name] ?? {} });
      expect(res.status, `${name}: ${context(res)}`).toBe(200);
      expect(res.body.data, `${name}: ${context(res)}`).toBeTruthy();
      for (const error of res.body.errors ?? []) expect(error.extensions.code, `${name}: ${context(res)}`).toMatch(/_not_found$/);
    }
  });
});

describe('persisted operations only (GRAPHQL_PERSISTED_ONLY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ persistedOperations: { documents, only: true } });
  });
  afterAll(() => t.close());

  it('refuses a document sent as text with persisted_query_only (400), by POST and by GET', async () => {
    const post = await send(t, { query: documents.get(hashOf('VenueSearch')), variables: SEARCH_VARIABLES });
    expect(post.status, context(post)).toBe(400);
    expectGraphQLError(post, 'persisted_query_only');
    expect(post.body.data, context(post)).toBeUndefined();
    const get = await sendGet(t, { query: '{ vendorCategories { slug } }' });
    expect(get.status, context(get)).toBe(400);
    expectGraphQLError(get, 'persisted_query_only');
  });

  it('accepts a known hash', async () => {
    const res = await send(t, { extensions: persisted('VenueSearch'), variables: SEARCH_VARIABLES });
    expect(res.status, context(res)).toBe(200);
    expect(res.body.errors, context(res)).toBeUndefined();
    expect(res.body.data.venues.nodes.length).toBeGreaterThan(0);
  });

  it('refuses an unknown hash with persisted_query_not_found', async () => {
    const res = await send(t, { extensions: UNKNOWN });
    expect(res.status, context(res)).toBe(404);
    expectGraphQLError(res, 'persisted_query_not_found');
  });

  it('still answers keyless introspection, so GraphiQL loads its schema and Docs', async () => {
    const res = await send(t, { query: '{ __schema { queryType { name } } }' }, { key: null });
    expect(res.status, context(res)).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
    const typename = await send(t, { query: '{ __typename }' });
    expect(typename.body.data, context(typename)).toEqual({ __typename: 'Query' });
  });

  it('does not let introspection carry another field past the check', async () => {
    const res = await send(t, { query: '{ __typename vendorCategories { slug } }' });
    expect(res.status, context(res)).toBe(400);
    expectGraphQLError(res, 'persisted_query_only');
  });
});

describe('loadPersistedOperations', () => {
  it('refuses a manifest whose document does not hash to its key (edited by hand, or from another build)', () => {
    const [hash] = [...documents.keys()];
    const dir = fileURLToPath(new URL('../../.tmp/', import.meta.url));
    const tampered = `${dir}tampered-${process.pid}.json`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(tampered, JSON.stringify({ [`sha256:${hash}`]: '{ __typename }' }));
    try {
      expect(() => loadPersistedOperations(tampered)).toThrow(/does not hash to it/);
    } finally {
      rmSync(tampered, { force: true });
    }
  });
});

describe('settings', () => {
  it('GRAPHQL_PERSISTED_ONLY defaults to off; GRAPHQL_PERSISTED_OPERATIONS has no value of its own (main.ts picks the example)', () => {
    expect(parseEnv({}).GRAPHQL_PERSISTED_ONLY).toBe(false);
    expect(parseEnv({ GRAPHQL_PERSISTED_ONLY: 'true' }).GRAPHQL_PERSISTED_ONLY).toBe(true);
    expect(parseEnv({ GRAPHQL_PERSISTED_ONLY: '1' }).GRAPHQL_PERSISTED_ONLY).toBe(true);
    expect(() => parseEnv({ GRAPHQL_PERSISTED_ONLY: 'yes' })).toThrow(/GRAPHQL_PERSISTED_ONLY/);
    expect(parseEnv({}).GRAPHQL_PERSISTED_OPERATIONS).toBeUndefined();
  });

  it('a manifest that cannot be read stops the server at start, before the database opens', async () => {
    const server = startServer({
      GRAPHQL_PERSISTED_OPERATIONS: '/nonexistent/persisted-documents.json',
      DATA_DIR: '/nonexistent/data',
      BASE_URL: 'http://127.0.0.1:4000',
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Cannot read the persisted operations manifest /nonexistent/persisted-documents.json');
  });
});
