// A GraphQL POST answers the same over a socket, where the ingress writes an answer no step changes as bytes with one
// writeHead, as in process, where every answer is finished as a Response (src/http/ingress.ts).
import { connect } from 'node:net';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPersistedOperations } from '../../src/graphql/persisted-operations.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { venueRoutes } from '../../src/venues/venues.rest.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { postBothWays, rawHeader as header, sendRaw } from '../support/raw-http.js';
import { camelBody, targets, validBody } from '../inquiries/support.js';

const MAX_BODY_BYTES = 64 * 1024;

const SEARCH = venueRoutes.find((r) => r.operationId === 'searchVenues')!.document;
const MANIFEST = fileURLToPath(new URL('../../examples/frontend/generated/persisted-documents.json', import.meta.url));
const documents = loadPersistedOperations(MANIFEST);
const hashOf = (name: string) => [...documents].find(([, text]) => new RegExp(`(^|\\s)query ${name}\\b`).test(text))![0];

/** A test app on a real listener for the describe block this is called in (its beforeAll and afterAll). */
function listeningTestApp(options: TestAppOptions = {}) {
  const env = { t: undefined as unknown as TestApp, base: '', port: 0, close: async () => {} };
  beforeAll(async () => {
    env.t = await createTestApp(options);
    const listening = await listenApp(env.t.app);
    Object.assign(env, { base: listening.base, port: listening.port, close: listening.close });
  });
  afterAll(async () => {
    await env.close();
    await env.t?.close();
  });
  return env;
}

/**
 * An app on a real listener, and each request sent both ways: over a socket and in process. Each side has its own key
 * and client IP, so their limit counters, and so their headers, move in step.
 */
function twoWays(options: TestAppOptions) {
  const sides = { socket: { key: '', ip: '10.0.1.1' }, process: { key: '', ip: '10.0.1.2' } };
  const env = listeningTestApp({ now: () => new Date('2026-06-01T12:00:00Z'), trustProxy: true, ...options });
  beforeAll(async () => {
    sides.socket.key = (await createApiKey({ tier: 'pro', name: 'socket' }, env.t.db)).key;
    sides.process.key = (await createApiKey({ tier: 'pro', name: 'in process' }, env.t.db)).key;
  });

  /** `body` as given (text) or as JSON; `key`: the side's own, none, or this one. */
  async function both(body: unknown, headers: Record<string, string> = {}, key: 'own' | 'none' | string = 'own') {
    return postBothWays(env.t.app, env.base, '/graphql', body, {
      headersOf: (side) => {
        const h: Record<string, string> = {
          'content-type': 'application/json',
          'x-request-id': 'socket-test-0002',
          'x-forwarded-for': sides[side].ip,
          ...headers,
        };
        if (key === 'own') h.authorization = `Bearer ${sides[side].key}`;
        else if (key !== 'none') h.authorization = `Bearer ${key}`;
        return h;
      },
      warm: { 'content-type': 'application/json', authorization: `Bearer ${env.t.keys.partner}`, 'x-forwarded-for': '10.0.1.3', ...headers },
    });
  }
  return { env, both };
}

describe.each([
  ['without the response cache', {}],
  ['with the response cache (both sides answered from it)', { responseCache: { ttlSeconds: 300 } }],
] as const)('a GraphQL POST answers over a socket as in process, %s', (_name, options) => {
  const { env, both } = twoWays(options);

  it("R1's search: status, every header and the body byte for byte; no-store, the limit headers, the request id", async () => {
    const answer = await both({ query: SEARCH, variables: { limit: 20 } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.venues.nodes).toHaveLength(20);
    expect(header(answer, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(answer, 'cache-control')).toBe('no-store');
    expect(header(answer, 'etag')).toBeUndefined();
    expect(header(answer, 'vary')).toBe('Accept-Encoding, Origin');
    expect(header(answer, 'x-ratelimit-remaining')).toBeDefined();
    expect(header(answer, 'x-request-id')).toBe('socket-test-0002');
    expect(header(answer, 'x-cache')).toBe('responseCache' in options ? 'HIT' : undefined);
  });

  it('the media type the client accepts; a deprecated field with its §9 headers; an operation picked by name', async () => {
    const typed = await both({ query: '{ venues(first: 1) { totalCount } }' }, { accept: 'application/graphql-response+json' });
    expect(header(typed, 'content-type')).toBe('application/graphql-response+json; charset=utf-8');
    const deprecated = await both({ query: '{ pricingEstimate { perNight } }' });
    expect([deprecated.status, header(deprecated, 'deprecation')]).toEqual([200, expect.any(String)]);
    const named = await both({ query: 'query A { venues(first: 1) { totalCount } } query B { __typename }', operationName: 'A' });
    expect(JSON.parse(named.body).data.venues.totalCount).toBeGreaterThan(0);
  });

  it('compression as the client asks for it: br and gzip for a large answer, a small one as it is', async () => {
    const search = { query: SEARCH, variables: { limit: 20 } };
    expect(header(await both(search, { 'accept-encoding': 'gzip, deflate, br' }), 'content-encoding')).toBe('br');
    expect(header(await both(search, { 'accept-encoding': 'gzip' }), 'content-encoding')).toBe('gzip');
    const small = await both({ query: '{ __typename }' }, { 'accept-encoding': 'br' });
    expect(header(small, 'content-encoding')).toBeUndefined();
  });

  it('answers with errors: a venue not found, a bad variable, a document that does not validate, one that does not parse', async () => {
    const missing = await both({ query: '{ venue(slug: "nowhere/nothing/none") { name } }' });
    expect(JSON.parse(missing.body).errors[0].extensions.code).toBe('venue_not_found');
    const variable = await both({ query: SEARCH, variables: { limit: 'twenty' } });
    expect(JSON.parse(variable.body).errors).toBeDefined();
    const invalid = await both({ query: '{ venues { nope } }' });
    expect(JSON.parse(invalid.body).errors[0].extensions.code).toBe('graphql_validation_failed');
    const unparsed = await both({ query: '{ venues(first: 1) { totalCount }' });
    expect(JSON.parse(unparsed.body)).toEqual({ errors: [expect.objectContaining({ message: expect.stringContaining('Syntax Error') })] });
  });

  it('what Yoga reads itself (a batch, bad JSON, an extra member, no query, an empty body) is answered by Yoga', async () => {
    for (const body of ['[{"query":"{ __typename }"}]', '{"query":', '{"query":"{ __typename }","extra":1}', '{"variables":{}}', '']) {
      const answer = await both(body);
      expect(answer.status, body).toBeGreaterThanOrEqual(200);
      expect(header(answer, 'x-request-id'), body).toBe('socket-test-0002');
    }
  });

  it('the key: none (401, or keyless introspection on the IP budget), a wrong one (401)', async () => {
    const keyless = await both({ query: '{ venues(first: 1) { totalCount } }' }, {}, 'none');
    expect([keyless.status, JSON.parse(keyless.body).errors[0].extensions.code]).toEqual([401, 'missing_api_key']);
    const introspection = await both({ query: '{ __schema { queryType { name } } }' }, {}, 'none');
    expect([introspection.status, header(introspection, 'x-ratelimit-remaining')]).toEqual([200, expect.any(String)]);
    const wrong = await both({ query: '{ venues(first: 1) { totalCount } }' }, {}, 'wv_live_00000000000000000000000000000000');
    expect([wrong.status, JSON.parse(wrong.body).errors[0].extensions.code]).toEqual([401, 'invalid_api_key']);
  });

  it('a body of exactly the limit is read; one byte more is 413, declared or chunked', async () => {
    const query = '{ __typename }';
    const padded = (bytes: number) => `{"query":"${query}"}`.padEnd(bytes, ' ');
    const atLimit = await both(padded(MAX_BODY_BYTES));
    expect([atLimit.status, JSON.parse(atLimit.body).data]).toEqual([200, { __typename: 'Query' }]);
    const past = await sendRaw(env.base, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.t.keys.partner}` },
      body: padded(MAX_BODY_BYTES + 1),
    });
    expect([past.status, JSON.parse(past.body.toString()).errors[0].extensions.code]).toEqual([413, 'payload_too_large']);
    const chunked = await sendRaw(env.base, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.t.keys.partner}`, 'transfer-encoding': 'chunked' },
      body: padded(MAX_BODY_BYTES + 1),
    });
    expect([chunked.status, JSON.parse(chunked.body.toString()).errors[0].extensions.code]).toEqual([413, 'payload_too_large']);
  });

  it('logs each request the same both ways', async () => {
    await both({ query: 'query SocketLogged { __typename }' });
    const lines = env.t.logs.filter((l) => l.includes('"msg":"request"') && l.includes('"path":"/graphql"')).map((l) => JSON.parse(l));
    expect(lines.slice(-2).map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).toEqual([
      { method: 'POST', path: '/graphql', status: 200, requestId: 'socket-test-0002' },
      { method: 'POST', path: '/graphql', status: 200, requestId: 'socket-test-0002' },
    ]);
  });
});

describe('a GraphQL POST with persisted operations only (GRAPHQL_PERSISTED_ONLY)', () => {
  const { both } = twoWays({ persistedOperations: { documents, only: true } });

  it('an operation by hash answers; an unknown hash and a document as text are refused', async () => {
    const byHash = await both({ extensions: { persistedQuery: { version: 1, sha256Hash: hashOf('VenueSearch') } }, variables: { first: 2 } });
    expect([byHash.status, JSON.parse(byHash.body).data.venues.nodes.length]).toEqual([200, 2]);
    const unknown = await both({ extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
    expect(JSON.parse(unknown.body).errors).toBeDefined();
    const text = await both({ query: '{ venues(first: 1) { totalCount } }' });
    expect(JSON.parse(text.body).errors).toBeDefined();
    const introspection = await both({ query: '{ __typename }' });
    expect(JSON.parse(introspection.body).data).toEqual({ __typename: 'Query' });
  });
});

describe('a client that hangs up in the middle of a GraphQL POST body', () => {
  const env = listeningTestApp();

  it('is logged as the client closing the request, not as our error, and the server answers the next one', async () => {
    const socket = connect(env.port, '127.0.0.1');
    await once(socket, 'connect');
    const head = [
      'POST /graphql HTTP/1.1',
      'host: api.test',
      'content-type: application/json',
      'content-length: 100',
      'x-request-id: socket-hangup-1',
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n{"query":"{ __typ`);
    socket.destroy();
    await expect
      .poll(() => env.t.logs.some((l) => l.includes('socket-hangup-1') && l.includes('client closed the request')), { timeout: 5000 })
      .toBe(true);
    expect(env.t.logs.filter((l) => l.includes('"level":50') || l.includes('"level":"error"'))).toEqual([]);
    const next = await sendRaw(env.base, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.t.keys.partner}` },
      body: '{"query":"{ venues(first: 1) { totalCount } }"}',
    });
    expect(next.status).toBe(200);
  });
});

describe('a lead through a GraphQL POST over a socket', () => {
  const env = listeningTestApp();

  it('one inquiry for an idempotency key in the header: sent twice at once (the lead, or idempotency_in_progress), then replayed', async () => {
    const input = camelBody(validBody('venue', await targets(env.t)));
    const query = 'mutation($input: VenueInquiryInput!) { createVenueInquiry(input: $input) { inquiryId status } }';
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${env.t.keys.partner}`, 'x-idempotency-key': 'socket-lead-001' };
    const body = JSON.stringify({ query, variables: { input } });
    const send = async () => JSON.parse((await sendRaw(env.base, '/graphql', { method: 'POST', headers, body })).body.toString());
    const answers = await Promise.all([send(), send()]);
    const leads = answers.filter((a) => a.data?.createVenueInquiry).map((a) => a.data.createVenueInquiry.inquiryId as string);
    for (const a of answers) if (!a.data?.createVenueInquiry) expect(a.errors[0].extensions.code).toBe('idempotency_in_progress');
    expect(leads.length).toBeGreaterThan(0);
    expect(new Set(leads).size).toBe(1);
    const replay = await send();
    expect(replay.data.createVenueInquiry.inquiryId).toBe(leads[0]);
    expect(await env.t.db.prisma.inquiry.count({ where: { id: leads[0] } })).toBe(1);
  });
});
