import { decompress as zstdDecompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restGetLaneOf } from '../../src/rest/get-lane.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { rawHeader as header, sendRaw } from '../support/raw-http.js';

describe('restGetLaneOf: which requests node:http serves without the Fetch layer', () => {
  const lane = (target: string, headers: Record<string, string> = {}, method = 'GET') => restGetLaneOf(method, target, headers);

  it('takes a GET of an /api/v1 path in plain characters, with its query as sent', () => {
    expect(lane('/api/v1/venues')).toEqual({ path: '/api/v1/venues', query: '' });
    expect(lane('/api/v1/venues?limit=20&amenities=pool,hot-tub')).toEqual({ path: '/api/v1/venues', query: 'limit=20&amenities=pool,hot-tub' });
    expect(lane('/api/v1/venues/california/napa/villa-rosa')?.path).toBe('/api/v1/venues/california/napa/villa-rosa');
    expect(lane('/api/v1/regional-cost-ranges?city=New+York&q=%22a%22')?.query).toBe('city=New+York&q=%22a%22');
    expect(lane('/api/v1/venues?', { authorization: 'Bearer x', 'accept-encoding': 'gzip' })).toEqual({ path: '/api/v1/venues', query: '' });
  });

  it('leaves to the Fetch path what URL parsing would change, what the lane does not write, and other methods', () => {
    expect(lane('/api/v1/venues', {}, 'HEAD')).toBeNull();
    expect(lane('/api/v1/venues', {}, 'POST')).toBeNull();
    expect(lane('/api/v1/venues/california%2Fnapa%2Fvilla-rosa')).toBeNull(); // %-escapes
    expect(lane('/api/v1/venues/../vendors')).toBeNull(); // dot segments
    expect(lane('/api/v1/./venues')).toBeNull();
    expect(lane('/api/v1/venues\\x')).toBeNull();
    expect(lane('/api/v1/venues?q=a#b')).toBeNull(); // a fragment
    expect(lane('/api/v1/venues?q=caf\u00e9')).toBeNull(); // not ASCII
    expect(lane('/api/v1')).toBeNull();
    expect(lane('/graphql')).toBeNull();
    expect(lane('/healthz')).toBeNull();
    expect(lane('/api/v1/venues', { origin: 'https://app.example' })).toBeNull(); // CORS headers
    expect(lane('/api/v1/venues', { 'if-none-match': 'W/"x"' })).toBeNull(); // a 304
    expect(restGetLaneOf('GET', undefined, {})).toBeNull();
  });
});

describe.each([
  ['without the response cache', {}],
  ['with the response cache (both sides answered from it)', { responseCache: { ttlSeconds: 300 } }],
] as const)('the REST GET lane answers as the Fetch path does, %s', (_name, options) => {
  let t: TestApp;
  let listening: Awaited<ReturnType<typeof listenApp>>;
  // Each side has its own key and client IP, so their limit counters (and so their headers) advance in step.
  const sides = { lane: { key: '', ip: '10.0.0.1' }, fetch: { key: '', ip: '10.0.0.2' } };
  let venueSlug = '';
  let nextPage = '';

  beforeAll(async () => {
    const fixed = new Date('2026-06-01T12:00:00Z');
    t = await createTestApp({ now: () => fixed, trustProxy: true, ...options });
    listening = await listenApp(t.app);
    sides.lane.key = (await createApiKey({ tier: 'pro', name: 'lane' }, t.db)).key;
    sides.fetch.key = (await createApiKey({ tier: 'pro', name: 'fetch path' }, t.db)).key;
    const search = await t.rest('/api/v1/venues?limit=2');
    venueSlug = search.body.data[0].slug;
    nextPage = `/api/v1/venues?limit=2&cursor=${search.body.pagination.next_cursor}`;
  });
  afterAll(async () => {
    await listening?.close();
    await t?.close();
  });

  /** The request as the lane takes it and as the Fetch path takes it (a non-matching If-None-Match changes nothing else). */
  async function both(target: string, headers: Record<string, string> = {}, key: 'own' | 'none' | string = 'own') {
    const on = async (side: 'lane' | 'fetch') => {
      const h: Record<string, string> = { 'x-request-id': 'lane-test-0001', 'x-forwarded-for': sides[side].ip, ...headers };
      if (key === 'own') h.authorization = `Bearer ${sides[side].key}`;
      else if (key !== 'none') h.authorization = `Bearer ${key}`;
      if (side === 'fetch') h['if-none-match'] = 'W/"not-this-answer"';
      expect(restGetLaneOf('GET', target, h) !== null).toBe(side === 'lane');
      const answer = await sendRaw(listening.base, target, { headers: h });
      // Packed bodies compared as bytes; the rest as text, to read a difference.
      return { ...answer, body: answer.body.toString(answer.headers.some((x) => x.startsWith('content-encoding:')) ? 'latin1' : 'utf8') };
    };
    // With the response cache on, a third client asks first, so that both sides are answered from it (X-Cache: HIT).
    await sendRaw(listening.base, target, { headers: { authorization: `Bearer ${t.keys.partner}`, 'x-forwarded-for': '10.0.0.3', ...headers } });
    const lane = await on('lane');
    const fetchPath = await on('fetch');
    expect(lane).toEqual(fetchPath);
    return lane;
  }

  it('a pricing estimate: the deprecation, caching, limit and request id headers, and the body, byte for byte', async () => {
    const answer = await both('/api/v1/venues/pricing?region=california&event_guests=120&overnight_guests=40&nights=3&season=peak');
    expect(answer.status).toBe(200);
    expect(header(answer, 'deprecation')).toBeDefined();
    expect(header(answer, 'etag')).toMatch(/^W\/"/);
    expect(header(answer, 'cache-control')).toBe('private, max-age=300');
    expect(header(answer, 'vary')).toBe('Accept-Encoding, Origin');
    expect(header(answer, 'x-ratelimit-remaining')).toBeDefined();
    expect(header(answer, 'x-request-id')).toBe('lane-test-0001');
    expect(header(answer, 'x-cache')).toBe('responseCache' in options ? 'HIT' : undefined);
    expect(JSON.parse(answer.body).request_id).toBe('lane-test-0001');
  });

  it('a search page, a next page by cursor, a venue by its slug path, a query with + and %-escapes', async () => {
    expect((await both('/api/v1/venues?limit=20')).status).toBe(200);
    expect((await both(nextPage)).status).toBe(200);
    expect((await both(`/api/v1/venues/${venueSlug}`)).status).toBe(200);
    const range = await both('/api/v1/regional-cost-ranges?city=Nashville%2C+TN&season=october&guests=150');
    expect(range.status).toBe(200);
  });

  it('compression as the client asks for it: a large body packed, a small one and identity as they are', async () => {
    const packed = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip, deflate, br' });
    expect(header(packed, 'content-encoding')).toBe('br');
    const gzip = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip' });
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    const zstd = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip;q=0.5, zstd' });
    expect(header(zstd, 'content-encoding')).toBe('zstd');
    const decoded = JSON.parse(Buffer.from(zstdDecompress(Buffer.from(zstd.body, 'latin1'))).toString());
    expect([decoded.data.length, decoded.request_id]).toEqual([20, 'lane-test-0001']);
    const identity = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'identity' });
    expect(header(identity, 'content-encoding')).toBeUndefined();
    const small = await both('/api/v1/venues/pricing?region=texas&event_guests=80', { 'accept-encoding': 'br' });
    expect(Buffer.byteLength(small.body)).toBeLessThan(1024);
    expect(header(small, 'content-encoding')).toBeUndefined();
  });

  it('errors: a bad parameter, an unknown venue, no key, a wrong key, an unknown route', async () => {
    const bad = await both('/api/v1/venues/pricing?region=narnia');
    expect([bad.status, JSON.parse(bad.body).error.code, header(bad, 'cache-control')]).toEqual([400, 'invalid_region', 'no-store']);
    const missing = await both('/api/v1/venues/nowhere/nothing/no-such-venue');
    expect(missing.status).toBe(404);
    const keyless = await both('/api/v1/venues?limit=2', {}, 'none');
    expect([keyless.status, JSON.parse(keyless.body).error.code]).toEqual([401, 'missing_api_key']);
    const wrong = await both('/api/v1/venues?limit=2', {}, 'wv_live_00000000000000000000000000000000');
    expect([wrong.status, JSON.parse(wrong.body).error.code]).toEqual([401, 'invalid_api_key']);
    const limit = await both('/api/v1/venues?limit=0');
    expect([limit.status, JSON.parse(limit.body).error.param]).toEqual([400, 'limit']);
    // No route matches: the lane passes it to the Fetch path (both sides answer there).
    const unknown = await sendRaw(listening.base, '/api/v1/no-such-route', { headers: { authorization: `Bearer ${t.keys.partner}` } });
    expect(unknown.status).toBe(404);
  });

  it('logs each lane request as the Fetch path does', async () => {
    await both('/api/v1/vendors/categories');
    const lines = t.logs.filter((l) => l.includes('"msg":"request"') && l.includes('/api/v1/vendors/categories')).map((l) => JSON.parse(l));
    expect(lines.slice(-2).map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).toEqual([
      { method: 'GET', path: '/api/v1/vendors/categories', status: 200, requestId: 'lane-test-0001' },
      { method: 'GET', path: '/api/v1/vendors/categories', status: 200, requestId: 'lane-test-0001' },
    ]);
  });
});
