// The node:http server of the service: malformed requests on a raw socket get the §7 envelope; a drain completes
// every in-flight request; explicit timeouts.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createHttpServer, parsesAsPath, SERVER_TIMEOUTS, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logging/logger.js';
import { parsesAsUrl } from '../../src/catalogue/url-parse.js';
import { openRawConnection } from '../support/raw-http.js';

let t: TestApp;
let http: HttpServer;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  http = createHttpServer(t.app.requestListener, { log: createLogger({ level: 'silent' }), baseUrl: 'http://api.test' });
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  port = (http.server.address() as AddressInfo).port;
});
afterAll(async () => {
  http.server.closeAllConnections();
  await new Promise((r) => http.server.close(r));
  await t.close();
});

/** Writes raw bytes on a fresh connection and returns everything the server answered before closing or 2 s. */
function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n'), text });
    };
    socket.setTimeout(2000, () => {
      socket.destroy();
      done();
    });
    socket.on('data', (d) => {
      text += d;
      // One response is enough: a complete body by Content-Length.
      const [head, body = ''] = text.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) {
        socket.destroy();
        done();
      }
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(bytes);
  });
}

function expectEnvelope(res: Awaited<ReturnType<typeof raw>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(body.error).toMatchObject({ code, type: 'request_error', doc_url: `http://api.test/developers/errors#${code}` });
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
  expect(body.error.request_id).toMatch(/^req_/);
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+|node:internal|\/work\/|TypeError/);
}

describe('malformed requests get the envelope, never a stack trace', () => {
  it('decides a request target exactly as WHATWG parsing does, fast path or not', () => {
    // The oracle is the parser itself (parsesAsUrl builds the URL; the next test holds it steady).
    const piece = fc.constantFrom('/', '//', '\\', 'a', '%', '%zz', '?', '#', ':', '@', '[', ']', ' ', '\t', 'é', '..', 'http:', '*', '');
    const target = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(target, fc.string()), (value) => {
        expect(parsesAsPath(value)).toBe(parsesAsUrl(value, 'http://localhost'));
      }),
      { numRuns: 5000 },
    );
    for (const value of ['//[bad', '/\\[bad', '/venues?x=1#y', '/%zz'])
      expect(parsesAsPath(value), value).toBe(parsesAsUrl(value, 'http://localhost'));
  });

  it('accepts a valid non-ASCII target on every call, however hot the check is (URL.canParse on Node 20 does not)', () => {
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) if (parsesAsPath('//é') && parsesAsUrl('https://é.example/x')) accepted++;
    expect(accepted).toBe(50_000);
  });

  it('OPTIONS * is answered 204 with Allow', async () => {
    const res = await raw('OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  const cases: Array<[string, string, number, string]> = [
    [
      'an absolute-form target',
      'GET http://evil.example/api/v1/venues HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['a Host with a space', 'GET /healthz HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n', 400, 'malformed_request'],
    ['a Host port past 65535', 'GET /healthz HTTP/1.1\r\nHost: localhost:99999\r\nConnection: close\r\n\r\n', 400, 'malformed_request'],
    ['an HTTP/1.1 request with no Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'malformed_request'],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /api/v1/inquiries/venue HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['* with GET', 'GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 400, 'malformed_request'],
    ['bytes that are not HTTP', 'HELLO THERE\r\n\r\n', 400, 'malformed_request'],
    ['a bad Content-Length', 'POST /api/v1/inquiries/venue HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n', 400, 'malformed_request'],
    // Node's own answer was a bare 417 with no body and no request id.
    [
      'an Expect other than 100-continue',
      'GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\nConnection: close\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['oversized headers (over 16 KB)', `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ];
  for (const [name, bytes, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      expectEnvelope(await raw(bytes), status, code);
    });
  }

  it('CONNECT → 405 method_not_allowed with Allow, then the connection is closed (Node closed it with no answer)', async () => {
    const res = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nbytes for the tunnel');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.connection).toBe('close');
    // Not the catalogue's hint for this code, which is about GraphQL's methods.
    expect(JSON.parse(res.body).error.hint).toBe('Send requests to this server directly, with GET, HEAD, POST or OPTIONS.');
    const closed = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('data', () => {});
      socket.on('end', () => resolve('closed by the server'));
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    });
    expect(closed).toBe('closed by the server');
  });

  it('an Expect other than 100-continue leaves the connection usable; 100-continue still gets its interim answer', async () => {
    const c = await openRawConnection(port);
    const refused = await c.exchange('POST /graphql HTTP/1.1\r\nHost: localhost\r\nExpect: bogus\r\nContent-Length: 2\r\n\r\n{}');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error.message).toContain('Expect: 100-continue');
    const query = JSON.stringify({ query: '{ vendorCategories { slug } }' });
    c.write(
      `POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.keys.partner}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(query)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await c.waitFor('HTTP/1.1 100 Continue');
    const answered = await c.exchange(query);
    expect(answered.status, answered.body).toBe(200);
    c.destroy();
  });

  it('an HTTP/1.0 request needs no Host (HTTP/1.0 has none) and is routed as usual', async () => {
    const res = await raw('GET /nowhere HTTP/1.0\r\n\r\n');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'route_not_found', type: 'not_found' });
  });

  it('timeouts are explicit', () => {
    expect(http.server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(http.server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(http.server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
    // Deadlines are checked every second, so a slow client is cut within a second of them, not up to 30 s late.
    expect((http.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(1_000);
  });

  it('the idle time a client is told to respect (developer pages, OpenAPI) is the one every response sends', async () => {
    const idle = SERVER_TIMEOUTS.keepAliveTimeoutMs / 1000;
    const page = await raw('GET /developers HTTP/1.1\r\nHost: api.test\r\n\r\n');
    expect(page.status).toBe(200);
    expect(page.headers['keep-alive']).toBe(`timeout=${idle}`);
    expect(page.body).toContain(`<code>Keep-Alive: timeout=${idle}</code>`);
    expect(page.body).toContain('retry a request whose reused connection was reset');
    const openapi = await raw('GET /api/v1/openapi.json HTTP/1.1\r\nHost: api.test\r\n\r\n');
    expect(openapi.headers['keep-alive']).toBe(`timeout=${idle}`);
    expect((JSON.parse(openapi.body) as { info: { description: string } }).info.description).toContain(`\`Keep-Alive: timeout=${idle}\``);
  });
});

describe('request bodies as a socket delivers them', () => {
  const query = JSON.stringify({ query: '{ vendorCategories { slug } }' });
  const post = (head: string, body: string) =>
    raw(
      `POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.keys.partner}\r\nContent-Type: application/json\r\n${head}Connection: close\r\n\r\n${body}`,
    );
  const chunked = (body: string) => `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const big = JSON.stringify({ query: `{ vendorCategories { slug } } #${'x'.repeat(70 * 1024)}` });

  it('a body with a Content-Length and a chunked one are both read whole', async () => {
    for (const res of [
      await post(`Content-Length: ${Buffer.byteLength(query)}\r\n`, query),
      await post('Transfer-Encoding: chunked\r\n', chunked(query)),
    ]) {
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.body).data.vendorCategories.length).toBeGreaterThan(0);
    }
  });

  it('past 64 KiB is 413 whether the length is declared (refused before reading) or the body is chunked', async () => {
    for (const res of [await post(`Content-Length: ${Buffer.byteLength(big)}\r\n`, ''), await post('Transfer-Encoding: chunked\r\n', chunked(big))]) {
      expect(res.status, res.text.slice(0, 200)).toBe(413);
      expect(JSON.parse(res.body).errors[0].extensions.code).toBe('payload_too_large');
    }
  });
});

describe('answers as a socket delivers them', () => {
  // Long bodies are encoded by utf8Bytes (ICU), short ones by Node: both must arrive as the UTF-8 of their JSON, with
  // a Content-Length of its bytes, non-ASCII text (the catalogue's en dashes, accented names) included.
  it('a venue page, a GraphQL answer, a short answer and an assistant tool call arrive whole, their Content-Length their bytes', async () => {
    const base = `http://127.0.0.1:${port}`;
    // identity: fetch asks for compressed bodies and unpacks them, so their Content-Length would not be theirs.
    const headers = { authorization: `Bearer ${t.keys.partner}`, 'accept-encoding': 'identity' };
    const answers = [
      await fetch(`${base}/api/v1/venues?limit=20`, { headers }),
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ venues(first: 20) { nodes { name city state priceRange } } }' }),
      }),
      await fetch(`${base}/api/v1/venues/pricing?region=california&event_guests=120&overnight_guests=40&nights=3&season=peak`, { headers }),
      // The MCP SDK answers with Node's own Response (a stream); it is re-made with its bytes too.
      await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'accept-encoding': 'identity' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_venues', arguments: { limit: 20 } } }),
      }),
    ];
    const texts: string[] = [];
    for (const answer of answers) {
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(answer.status, bytes.toString().slice(0, 200)).toBe(200);
      expect(Number(answer.headers.get('content-length'))).toBe(bytes.byteLength);
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      expect(() => JSON.parse(text)).not.toThrow();
      texts.push(text);
    }
    expect(texts[0].length).toBeGreaterThan(2048);
    expect(texts[1].length).toBeGreaterThan(2048);
    expect(texts[3].length).toBeGreaterThan(2048);
    expect(JSON.parse(texts[3]).result.content.length).toBeGreaterThan(0);
    expect(
      texts
        .join('')
        .split('')
        .some((c) => c.charCodeAt(0) > 0x7f),
    ).toBe(true);
  });
});
