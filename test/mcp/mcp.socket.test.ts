// An MCP POST answers the same over a socket, where the ingress writes a 200 as bytes with one writeHead, as in
// process, where every answer is finished as a Response (src/http/ingress.ts): status, every header and every byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { postBothWays, rawHeader as header } from '../support/raw-http.js';

const ACCEPT = 'application/json, text/event-stream';
const call = (id: number | string, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/**
 * An app on a real listener, and each request sent both ways: over a socket and in process. Each side has its own
 * client IP, so their keyless counters, and so their headers, move in step.
 */
function twoWays(options: TestAppOptions) {
  const env = { t: undefined as unknown as TestApp, base: '', close: async () => {} };
  beforeAll(async () => {
    env.t = await createTestApp({ now: () => new Date('2026-06-01T12:00:00Z'), trustProxy: true, ...options });
    const listening = await listenApp(env.t.app);
    Object.assign(env, { base: listening.base, close: listening.close });
  });
  afterAll(async () => {
    await env.close();
    await env.t?.close();
  });

  async function both(body: unknown, headers: Record<string, string> = {}) {
    return postBothWays(env.t.app, env.base, '/mcp', body, {
      headersOf: (side) => ({
        'content-type': 'application/json',
        accept: ACCEPT,
        'x-request-id': 'mcp-socket-test',
        'x-forwarded-for': side === 'socket' ? '10.0.2.1' : '10.0.2.2',
        ...headers,
      }),
      warm: { 'content-type': 'application/json', accept: ACCEPT, 'x-forwarded-for': '10.0.2.3' },
    });
  }
  return { env, both };
}

describe.each([
  ['without the response cache', {}],
  ['with the response cache (both sides answered from it)', { responseCache: { ttlSeconds: 300 } }],
] as const)('an MCP POST answers over a socket as in process, %s', (_name, options) => {
  const { env, both } = twoWays({ ...options, limits: { ...SPEC_POLICY, keylessPerMinute: 1_000 } });

  it("M1's call: status, every header and the body byte for byte; the keyless limit headers and the request id", async () => {
    const answer = await both(call(1, 'search_venues', { limit: 20 }));
    expect(answer.status).toBe(200);
    const { result } = JSON.parse(answer.body);
    expect(result.structuredContent.data).toHaveLength(20);
    expect(result.structuredContent.request_id).toBe('mcp-socket-test');
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(header(answer, 'cache-control')).toBe('no-store');
    expect(header(answer, 'x-ratelimit-remaining')).toBeDefined();
    expect(header(answer, 'x-request-id')).toBe('mcp-socket-test');
    expect(header(await both(call(2, 'search_venues', { limit: 20 }), { 'accept-encoding': 'br' }), 'content-encoding')).toBe('br');
  });

  it('tool errors, JSON-RPC errors, notifications and batches', async () => {
    const refused = await both(call(3, 'search_venues', { limit: 80 }));
    expect(JSON.parse(refused.body).result.structuredContent.error.code).toBe('invalid_parameters');
    expect(JSON.parse((await both(call(4, 'no_such_tool', {}))).body).error.code).toBe(-32602);
    expect(JSON.parse((await both(call(5, 'search_venues', [1]))).body).error.code).toBe(-32602);
    expect((await both({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const batch = await both([call(1, 'list_vendor_categories', {}), { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(JSON.parse(batch.body)).toHaveLength(2);
    expect((await both('{')).status).toBe(400);
    expect((await both({ hello: 'world' })).status).toBe(400);
    expect((await both({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' })).status).toBe(406);
    expect((await both({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('logs each request the same both ways', async () => {
    await both({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const lines = env.t.logs.filter((l) => l.includes('"msg":"request"') && l.includes('"path":"/mcp"')).map((l) => JSON.parse(l));
    expect(lines.slice(-2).map(({ method, path, status, requestId }) => ({ method, path, status, requestId }))).toEqual([
      { method: 'POST', path: '/mcp', status: 200, requestId: 'mcp-socket-test' },
      { method: 'POST', path: '/mcp', status: 200, requestId: 'mcp-socket-test' },
    ]);
  });
});
