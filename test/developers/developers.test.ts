// Where people meet the API: the developer pages, and the HTTP conventions clients expect (issue 10).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, expectRestError, type TestApp } from '../support/app.js';
import { ERROR_CATALOGUE } from '../../src/errors/catalogue.js';
import { postRest, targets, validBody } from '../inquiries/support.js';
import { repoRoot } from '../support/processes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const raw = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`${BASE_URL}${path}`, init));
const auth = () => ({ authorization: `Bearer ${t.keys.pro}` });

describe('developer pages (keyless, server-rendered, no CDN)', () => {
  it('the landing page, reference, errors and changelog answer HTML without a key, on the keyless budget', async () => {
    const spec = await createTestApp({ database: t.db, limits: 'spec' });
    for (const path of ['/developers', '/developers/reference', '/developers/errors', '/developers/changelog']) {
      const res = await spec.app.fetch(new Request(`${BASE_URL}${path}`));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('x-ratelimit-limit')).toBe('400');
      const html = await res.text();
      expect(html).toContain('<link rel="stylesheet" href="/developers/style.css">');
      expect(html).not.toMatch(/https?:\/\/(?!localhost|api\.test|127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}\/[^"]*\.(js|css)/);
    }
    await spec.close();
    const css = await raw('/developers/style.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    for (const asset of ['/developers/assets/swagger-ui-bundle.js', '/developers/assets/swagger-ui.css', '/developers/assets/reference.js']) {
      const res = await raw(asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect(await (await raw('/developers/reference')).text()).toContain('/developers/assets/swagger-ui-bundle.js');
    expectRestError(await t.rest('/developers/nothing-here', { key: null }), 404, 'route_not_found');
  });

  it('the error page has one section per catalogue code, id = code, with type, status, when, what to do and an example', async () => {
    const html = await (await raw('/developers/errors')).text();
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      const section = new RegExp(`<section class="error" id="${code}">[\\s\\S]*?</section>`).exec(html)?.[0];
      expect(section, code).toBeTruthy();
      expect(section).toContain(`<code>${entry.type}</code>`);
      expect(section).toContain('<dt>When</dt>');
      expect(section).toContain('<dt>What to do</dt>');
      expect(section).toContain(`&quot;code&quot;: &quot;${code}&quot;`);
    }
  });

  it('every doc_url of real error responses lands on a section that exists', async () => {
    const tg = await targets(t);
    const errors = [
      await t.rest('/api/v1/venues', { key: null }),
      await t.rest('/api/v1/venues', { key: 'wv_live_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC' }),
      await t.rest('/api/v1/nowhere'),
      await t.rest('/api/v1/venues?limit=500'),
      await t.rest('/api/v1/venues/no%2Fsuch-venue'),
      await t.rest('/api/v1/venues/pricing?region=mars'),
      await t.rest('/api/v1/inspiration/not-a-uuid'),
      await postRest(t, 'venue', { ...validBody('venue', tg), sms_consent: 'yes' }),
    ];
    const html = await (await raw('/developers/errors')).text();
    for (const res of errors) {
      const url = new URL(res.body.error.doc_url);
      expect(url.pathname).toBe('/developers/errors');
      expect(html, res.body.error.code).toContain(`id="${url.hash.slice(1)}"`);
    }
  });

  it('the changelog is CHANGELOG.md rendered: 1.0.0 and the §9 deprecations with their removal date', async () => {
    const html = await (await raw('/developers/changelog')).text();
    expect(html).toMatch(/<h2[^>]*>\[1\.0\.0\]/);
    for (const field of ['per_night', 'median_nightly', 'typical_low_nightly', 'typical_high_nightly']) expect(html).toContain(field);
    expect(html).toContain('2027-01-06');
  });
});

describe('deprecated fields announce themselves (RFC 9745 Deprecation, RFC 8594 Sunset)', () => {
  const expectDeprecation = (headers: Headers) => {
    expect(headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 23) / 1000}`);
    expect(headers.get('sunset')).toBe('Thu, 07 Jan 2027 00:00:00 GMT');
    expect(headers.get('link')).toBe(`<${BASE_URL}/developers/changelog>; rel="deprecation"; type="text/html"`);
  };
  it('on REST responses carrying per_night or the *_nightly twins, and on GraphQL operations selecting them', async () => {
    expectDeprecation((await t.rest('/api/v1/venues/pricing')).headers);
    expectDeprecation((await t.rest('/api/v1/cost-benchmarks')).headers);
    expectDeprecation((await t.graphql('{ pricingEstimate { perNight } }')).headers);
    expect((await t.graphql('{ pricingEstimate { perNightAverage } }')).headers.get('deprecation')).toBeNull();
    expect((await t.rest('/api/v1/venues?limit=1')).headers.get('deprecation')).toBeNull();
  });
});

describe('HTTP conventions', () => {
  it('HEAD on every GET route, /healthz included: the GET headers, no body; a known path with a method it lacks stays 404', async () => {
    for (const [path, headers] of [
      ['/healthz', {}],
      ['/api/v1/venues?limit=2', auth()],
      ['/api/v1/vendors/categories', auth()],
      ['/developers/errors', {}],
      ['/api/v1/openapi.json', {}],
    ] as const) {
      const res = await raw(path, { method: 'HEAD', headers });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe('');
      expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    }
    expectRestError(await t.rest('/api/v1/venues', { method: 'DELETE' }), 404, 'route_not_found');
  });

  it('compression: br, zstd or gzip as negotiated for bodies of 1 KB or more; the same JSON after decoding', async () => {
    const plain = await raw('/api/v1/venues?limit=100', { headers: auth() });
    const text = await plain.text();
    const br = await raw('/api/v1/venues?limit=100', { headers: { ...auth(), 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.byteLength).toBeLessThan(text.length / 3);
    const decoded = JSON.parse(brotliDecompressSync(brBytes).toString());
    expect(decoded.data).toEqual(JSON.parse(text).data);
    const gz = await raw('/api/v1/venues?limit=100', { headers: { ...auth(), 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).data).toEqual(decoded.data);
    const zstd = await raw('/api/v1/venues?limit=100', { headers: { ...auth(), 'accept-encoding': 'zstd, gzip;q=0.9' } });
    expect(zstd.headers.get('content-encoding')).toBe('zstd');
    expect(JSON.parse(Buffer.from(zstdDecompress(new Uint8Array(await zstd.arrayBuffer()))).toString()).data).toEqual(decoded.data);
    const small = await raw('/healthz', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    const page = await raw('/developers/errors', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(page.headers.get('content-encoding')).toBe('gzip');
  });

  it('catalogue reads: weak ETag without request_id, private max-age=300; If-None-Match → 304 with rate limit headers, still counted', async () => {
    const first = await t.rest('/api/v1/venues?limit=3', { key: t.keys.free });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=300');
    const second = await t.rest('/api/v1/venues?limit=3', { key: t.keys.free });
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.body.request_id).not.toBe(first.body.request_id);
    const notModified = await t.rest('/api/v1/venues?limit=3', { key: t.keys.free, headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(Number(notModified.headers.get('x-ratelimit-remaining'))).toBe(Number(second.headers.get('x-ratelimit-remaining')) - 1);
    const changed = await t.rest('/api/v1/venues?limit=4', { key: t.keys.free, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    const gql = await t.rest(`/graphql?query=${encodeURIComponent('{ vendorCategories { slug } }')}`, { headers: { accept: 'application/json' } });
    expect(gql.headers.get('etag')).toMatch(/^W\//);
    const gqlAgain = await t.rest(`/graphql?query=${encodeURIComponent('{ vendorCategories { slug } }')}`, {
      headers: { accept: 'application/json', 'if-none-match': gql.headers.get('etag')! },
    });
    expect(gqlAgain.status).toBe(304);
    // HTTP 200 with a field error (venue not found) is not kept for 5 minutes.
    const missing = await t.rest(`/graphql?query=${encodeURIComponent('{ venue(slug: "us/nowhere/none") { name } }')}`, {
      key: t.keys.free,
      headers: { accept: 'application/json' },
    });
    expect(missing.status).toBe(200);
    expect(missing.body.errors[0].extensions.code).toBe('venue_not_found');
    expect(missing.headers.get('etag')).toBeNull();
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect((await t.rest('/api/v1/nowhere')).headers.get('cache-control')).toBe('no-store');
    const tg = await targets(t);
    expect((await postRest(t, 'vendor', validBody('vendor', tg))).headers.get('cache-control')).toBe('no-store');
  });

  it('CORS preflights reflect the requested headers and allow HEAD; responses expose the request id and limit headers', async () => {
    const res = await raw('/api/v1/venues', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-trace-id',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, x-trace-id');
    expect(res.headers.get('access-control-allow-methods')).toContain('HEAD');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const get = await raw('/api/v1/venues?limit=1', { headers: { ...auth(), origin: 'https://app.example' } });
    for (const name of ['X-Request-Id', 'X-RateLimit-Remaining', 'Retry-After', 'RateLimit', 'ETag']) {
      expect(get.headers.get('access-control-expose-headers')).toContain(name);
    }
  });

  it('CORS_ORIGINS limits the origins a browser may call from; the pages and GraphQL get the same headers', async () => {
    const limited = await createTestApp({ database: t.db, corsOrigins: ['https://planner.example', 'https://admin.example'] });
    const from = (origin: string, path = '/api/v1/venues?limit=1') =>
      limited.app.fetch(new Request(`${BASE_URL}${path}`, { headers: { ...auth(), origin } }));
    expect((await from('https://planner.example')).headers.get('access-control-allow-origin')).toBe('https://planner.example');
    expect((await from('https://admin.example', '/developers')).headers.get('access-control-allow-origin')).toBe('https://admin.example');
    // A refused origin gets no CORS headers at all (not `null`, which sandboxed iframes and data: pages would match).
    const refused = await from('https://elsewhere.example');
    expect(refused.status).toBe(200);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-expose-headers')).toBeNull();
    expect((await from('null')).headers.get('access-control-allow-origin')).toBeNull();
    const preflight = (origin: string) =>
      limited.app.fetch(
        new Request(`${BASE_URL}/api/v1/venues`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        }),
      );
    const allowed = await preflight('https://admin.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization');
    const refusedPreflight = await preflight('https://elsewhere.example');
    expect(refusedPreflight.status).toBe(204);
    expect(refusedPreflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(refusedPreflight.headers.get('access-control-allow-headers')).toBeNull();
    const graphql = await limited.app.fetch(
      new Request(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: { ...auth(), origin: 'https://planner.example', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
    );
    expect(graphql.headers.get('access-control-allow-origin')).toBe('https://planner.example');
    expect(graphql.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(graphql.headers.get('access-control-allow-credentials')).toBeNull();
    // GraphQL answers a refused origin as every other route does: no CORS headers at all.
    const refusedGraphql = await limited.app.fetch(
      new Request(`${BASE_URL}/graphql`, {
        method: 'POST',
        headers: { ...auth(), origin: 'https://elsewhere.example', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ venues(limit: 1) { totalCount } }' }),
      }),
    );
    expect(refusedGraphql.status).toBe(200);
    expect(refusedGraphql.headers.get('access-control-allow-origin')).toBeNull();
    expect(refusedGraphql.headers.get('access-control-allow-credentials')).toBeNull();
    expect(refusedGraphql.headers.get('vary')).toBe('Accept-Encoding, Origin');
    await limited.close();
    // A one-origin list names that origin only to itself, never to another caller.
    const single = await createTestApp({ database: t.db, corsOrigins: ['https://planner.example'] });
    const to = (origin: string) => single.app.fetch(new Request(`${BASE_URL}/developers`, { headers: { origin } }));
    expect((await to('https://planner.example')).headers.get('access-control-allow-origin')).toBe('https://planner.example');
    expect((await to('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
    await single.close();
  });

  it('Vary names Origin and keeps Accept-Encoding on every response, so a shared cache keeps CORS and encodings apart', async () => {
    for (const origin of [undefined, 'https://app.example']) {
      const headers: Record<string, string> = { 'accept-encoding': 'br', ...(origin ? { origin } : {}) };
      const page = await raw('/developers/errors', { headers });
      expect(page.headers.get('content-encoding')).toBe('br');
      expect(page.headers.get('cache-control')).toBe('public, max-age=300');
      expect(page.headers.get('vary')).toBe('Accept-Encoding, Origin');
      const venues = await raw('/api/v1/venues?limit=100', { headers: { ...headers, ...auth() } });
      expect(venues.headers.get('vary')).toBe('Accept-Encoding, Origin');
    }
    // GET /graphql answers a browser with GraphiQL and API clients with JSON: the page varies on Accept as well.
    const graphiql = await raw('/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'gzip', origin: 'https://app.example' } });
    expect(graphiql.headers.get('vary')).toBe('Accept, Accept-Encoding, Origin');
  });

  it('introspection answers keyless even with GraphiQL’s old placeholder key; a query with it is told the key is missing', async () => {
    const post = (query: string) =>
      raw('/graphql', {
        method: 'POST',
        headers: { authorization: 'Bearer YOUR_API_KEY', 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    const res = await post('{ __schema { queryType { name } } }');
    expect(res.status).toBe(200);
    expect((await res.json()).data.__schema.queryType.name).toBe('Query');
    const refused = await post('{ venues(first: 1) { totalCount } }');
    expect(refused.status).toBe(401);
    const [error] = (await refused.json()).errors;
    expect([error.extensions.code, error.message]).toEqual(['invalid_api_key', expect.stringMatching(/^The API key is missing: .* placeholder/)]);
  });

  it('array parameters take a,b and a=x&a=y alike; other parameters repeated are refused', async () => {
    const commas = await t.rest('/api/v1/venues?amenities=pool,hot-tub&limit=50');
    const repeated = await t.rest('/api/v1/venues?amenities=pool&amenities=hot-tub&limit=50');
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body.data).toEqual(commas.body.data);
    expectRestError(await t.rest('/api/v1/venues?state=texas&state=utah'), 400, 'invalid_parameters', 'state');
  });

  it('a 404 for a request with a valid key carries that key’s rate limit headers, and the IETF RateLimit fields', async () => {
    const spec = await createTestApp({ database: t.db, limits: 'spec' });
    const res = await spec.rest('/api/v1/nowhere', { key: spec.keys.free });
    await spec.close();
    expectRestError(res, 404, 'route_not_found');
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=10;w=60, "day";q=100;w=86400');
    expect(res.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  });
});

describe('GraphiQL on first open', () => {
  it('the page has one key field for every tab and no placeholder header template', async () => {
    const page = await (await raw('/graphql', { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<input id="api-key" type="password"');
    expect(page).toContain('Sent from every tab');
    expect(page).not.toContain('YOUR_API_KEY');
  });

  it('GraphiQL and the explorer come from this service: versioned asset URLs, compressed and cacheable like the page', async () => {
    const res = await raw('/graphql', { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const page = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith('/developers/assets/'));
    const version = (pkg: string) => JSON.parse(readFileSync(join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    expect(assets).toEqual([
      `/developers/assets/graphiql/graphiql.css?v=${version('graphiql')}`,
      `/developers/assets/graphiql/explorer.css?v=${version('@graphiql/plugin-explorer')}`,
      `/developers/assets/graphiql/react.js?v=${version('react')}`,
      `/developers/assets/graphiql/react-dom.js?v=${version('react-dom')}`,
      `/developers/assets/graphiql/graphiql.js?v=${version('graphiql')}`,
      `/developers/assets/graphiql/explorer.js?v=${version('@graphiql/plugin-explorer')}`,
    ]);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const url of assets) {
      const asset = await raw(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get('content-type'), url).toMatch(url.includes('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(asset.headers.get('content-encoding'), url).toBe('br');
      expect(asset.headers.get('cache-control'), url).toBe('public, max-age=86400');
      expect(brotliDecompressSync(Buffer.from(await asset.arrayBuffer())).byteLength, url).toBeGreaterThan(1000);
    }
  });

  it('introspection answers without a key (keyless budget); anything else still needs one', async () => {
    const spec = await createTestApp({ database: t.db, limits: 'spec' });
    const post = (query: string) =>
      spec.app.fetch(
        new Request(`${BASE_URL}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query }),
        }),
      );
    const schema = await post(getIntrospectionQuery());
    expect(schema.status).toBe(200);
    expect(schema.headers.get('x-ratelimit-limit')).toBe('400');
    const body = await schema.json();
    expect(body.data.__schema.queryType.name).toBe('Query');
    const mixed = await post('{ __typename venues(first: 1) { totalCount } }');
    expect(mixed.status).toBe(401);
    expect((await mixed.json()).errors[0].extensions.code).toBe('missing_api_key');
    await spec.close();
  });
});

describe('GraphiQL example tabs', () => {
  it('every example operation is valid against the schema and opens as a tab', async () => {
    const { GRAPHIQL_EXAMPLES } = await import('../../src/graphql/graphiql-examples.js');
    const { getSchema } = await import('../../src/graphql/schema.js');
    const { parse, validate } = await import('graphql');
    for (const example of GRAPHIQL_EXAMPLES) expect(validate(getSchema(), parse(example.query)).map((e) => e.message)).toEqual([]);
    const page = await (await raw('/graphql', { headers: { accept: 'text/html' } })).text();
    for (const name of ['SearchVenues', 'VenueDetail', 'Photographers', 'Estimate', 'Knowledge']) expect(page).toContain(name);
  });
});
