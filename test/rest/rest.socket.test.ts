// A REST GET answers the same over a socket, where the ingress writes an answer no step changes as bytes with one
// writeHead, as in process, where every answer is finished as a Response (src/http/ingress.ts).
import { decompress as zstdDecompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { rawHeader as header, sendBothWays } from '../support/raw-http.js';

describe.each([
  ['without the response cache', {}],
  ['with the response cache (both sides answered from it)', { responseCache: { ttlSeconds: 300 } }],
] as const)('a REST GET answers over a socket as in process, %s', (_name, options) => {
  let t: TestApp;
  let listening: Awaited<ReturnType<typeof listenApp>>;
  // Each side has its own key and client IP, so their limit counters (and so their headers) advance in step.
  const sides = { socket: { key: '', ip: '10.0.0.1' }, process: { key: '', ip: '10.0.0.2' } };
  let venueSlug = '';
  let nextPage = '';

  beforeAll(async () => {
    const fixed = new Date('2026-06-01T12:00:00Z');
    t = await createTestApp({ now: () => fixed, trustProxy: true, ...options });
    listening = await listenApp(t.app);
    sides.socket.key = (await createApiKey({ tier: 'pro', name: 'socket' }, t.db)).key;
    sides.process.key = (await createApiKey({ tier: 'pro', name: 'in process' }, t.db)).key;
    const search = await t.rest('/api/v1/venues?limit=2');
    venueSlug = search.body.data[0].slug;
    nextPage = `/api/v1/venues?limit=2&cursor=${search.body.pagination.next_cursor}`;
  });
  afterAll(async () => {
    await listening?.close();
    await t?.close();
  });

  /** The request over a socket and in process; `key`: each side's own, none, or this one. */
  async function both(target: string, headers: Record<string, string> = {}, key: 'own' | 'none' | string = 'own', method = 'GET') {
    return sendBothWays(
      t.app,
      listening.base,
      target,
      { method },
      {
        headersOf: (side) => {
          const h: Record<string, string> = { 'x-request-id': 'socket-test-0001', 'x-forwarded-for': sides[side].ip, ...headers };
          if (key === 'own') h.authorization = `Bearer ${sides[side].key}`;
          else if (key !== 'none') h.authorization = `Bearer ${key}`;
          return h;
        },
        // With the response cache on, a third client asks first, so that both sides are answered from it (X-Cache: HIT).
        warm: { authorization: `Bearer ${t.keys.partner}`, 'x-forwarded-for': '10.0.0.3', ...headers },
      },
    );
  }

  it('a pricing estimate: the deprecation, caching, limit and request id headers, and the body, byte for byte', async () => {
    const answer = await both('/api/v1/venues/pricing?region=california&event_guests=120&overnight_guests=40&nights=3&season=peak');
    expect(answer.status).toBe(200);
    expect(header(answer, 'deprecation')).toBeDefined();
    expect(header(answer, 'etag')).toMatch(/^W\/"/);
    expect(header(answer, 'cache-control')).toBe('private, max-age=300');
    expect(header(answer, 'vary')).toBe('Accept-Encoding, Origin');
    expect(header(answer, 'x-ratelimit-remaining')).toBeDefined();
    expect(header(answer, 'x-request-id')).toBe('socket-test-0001');
    expect(header(answer, 'x-cache')).toBe('responseCache' in options ? 'HIT' : undefined);
    expect(JSON.parse(answer.body).request_id).toBe('socket-test-0001');
  });

  it('a search page, a next page by cursor, a venue by its slug path, a query with + and %-escapes', async () => {
    expect((await both('/api/v1/venues?limit=20')).status).toBe(200);
    expect((await both(nextPage)).status).toBe(200);
    expect((await both(`/api/v1/venues/${venueSlug}`)).status).toBe(200);
    const range = await both('/api/v1/regional-cost-ranges?city=Nashville%2C+TN&season=october&guests=150');
    expect(range.status).toBe(200);
  });

  it('compression as the client asks for it: a large body packed, a small one and identity as they are; HEAD and a 304', async () => {
    const packed = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip, deflate, br' });
    expect(header(packed, 'content-encoding')).toBe('br');
    const gzip = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip' });
    expect(header(gzip, 'content-encoding')).toBe('gzip');
    const zstd = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'gzip;q=0.5, zstd' });
    expect(header(zstd, 'content-encoding')).toBe('zstd');
    const decoded = JSON.parse(Buffer.from(zstdDecompress(Buffer.from(zstd.body, 'latin1'))).toString());
    expect([decoded.data.length, decoded.request_id]).toEqual([20, 'socket-test-0001']);
    const identity = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'identity' });
    expect(header(identity, 'content-encoding')).toBeUndefined();
    const small = await both('/api/v1/venues/pricing?region=texas&event_guests=80', { 'accept-encoding': 'br' });
    expect(Buffer.byteLength(small.body)).toBeLessThan(1024);
    expect(header(small, 'content-encoding')).toBeUndefined();
    const etag = header(await both('/api/v1/vendors/categories'), 'etag')!;
    const unchanged = await both('/api/v1/vendors/categories', { 'if-none-match': etag });
    expect([unchanged.status, unchanged.body]).toEqual([304, '']);
    const other = await both('/api/v1/vendors/categories', { 'if-none-match': 'W/"not-this-answer"', origin: 'https://app.example' });
    expect([other.status, header(other, 'access-control-allow-origin')]).toEqual([200, 'https://app.example']);
    const head = await both('/api/v1/venues?limit=20', { 'accept-encoding': 'br' }, 'own', 'HEAD');
    expect([head.status, head.body, header(head, 'content-encoding')]).toEqual([200, '', 'br']);
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
    const unknown = await both('/api/v1/no-such-route');
    expect([unknown.status, JSON.parse(unknown.body).error.code]).toEqual([404, 'route_not_found']);
    // A path URL parsing reads (a dot segment, a %-escape) is routed as URL parsing reads it.
    const dotted = await both('/api/v1/vendors/../vendors/categories');
    expect(dotted.status).toBe(200);
    const escaped = await both(`/api/v1/venues/${venueSlug.replaceAll('/', '%2F')}`);
    expect(escaped.status).toBe(200);
  });

  it('logs each request the same both ways', async () => {
    await both('/api/v1/vendors/categories');
    const lines = t.logs.filter((l) => l.includes('"msg":"request"') && l.includes('/api/v1/vendors/categories')).map((l) => JSON.parse(l));
    expect(lines.slice(-2).map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).toEqual([
      { method: 'GET', path: '/api/v1/vendors/categories', status: 200, requestId: 'socket-test-0001' },
      { method: 'GET', path: '/api/v1/vendors/categories', status: 200, requestId: 'socket-test-0001' },
    ]);
  });
});
