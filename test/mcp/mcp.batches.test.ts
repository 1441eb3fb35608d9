// What /mcp does with JSON-RPC batches and malformed tool calls, sent as raw POSTs to the real listener: every message
// counts on the keyless minute (§8.4), batches follow JSON-RPC 2.0 and the protocol revision, bad params are -32602.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { testClock } from '../limits/clock.js';

/** The keyless minute of this app: above the largest batch, so a full batch can fit and a refusal is about what is left. */
const PER_MINUTE = 120;

const clock = testClock();
let t: TestApp;
let server: Awaited<ReturnType<typeof listenApp>>;
let ipCount = 0;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now, trustProxy: true, limits: { ...SPEC_POLICY, keylessPerMinute: PER_MINUTE } });
  server = await listenApp(t.app);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** A client address of its own for each test: budgets never leak between tests. */
const newIp = () => `198.51.100.${++ipCount}`;

/** One raw POST: `body` is sent as given when it is a string (escapes a JSON.stringify would not write), else as JSON. */
async function post(ip: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': ip, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

describe('every message counts on the keyless minute', () => {
  it('a batch counts one per message: tool calls by the runner, everything else before it runs', async () => {
    const ip = newIp();
    const one = await post(ip, list(1));
    expect(one.status, one.text).toBe(200);
    expect(one.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
    expect(remaining(one)).toBe(PER_MINUTE - 1);
    const five = await post(ip, [
      list(1),
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'resources/list' },
      list(4),
      list(5),
    ]);
    expect(five.status, five.text).toBe(200);
    expect(five.body).toHaveLength(5);
    expect(remaining(five)).toBe(PER_MINUTE - 6);
    const mixed = await post(ip, [call(1, 'list_vendor_categories', {}), call(2, 'list_vendor_categories', {}), list(3)]);
    expect(
      mixed.body.map((m: any) => m.result?.isError ?? false),
      mixed.text,
    ).toEqual([false, false, false]);
    expect(remaining(mixed)).toBe(PER_MINUTE - 9);
    const notifications = await post(ip, [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(notifications.status).toBe(202);
    expect(remaining(notifications)).toBe(PER_MINUTE - 11);
    // Calls the runner never sees (an unknown tool, arguments refused before the route runs) count all the same.
    const refusedCalls = await post(ip, [call(1, 'no_such_tool', {}), call(2, 'search_venues', { limit: 80 }), call(3, 'search_venues', [1])]);
    expect(refusedCalls.body.map((m: any) => m.error?.code ?? m.result.isError)).toEqual([-32602, true, -32602]);
    expect(remaining(refusedCalls)).toBe(PER_MINUTE - 14);
  });

  it('1 tools/call + 99 tools/list after the minute is used up is refused 429 whole, with the limiter headers; nothing in it runs', async () => {
    const ip = newIp();
    const hundred = await post(
      ip,
      Array.from({ length: 100 }, (_, i) => list(i)),
    );
    expect(hundred.status).toBe(200);
    expect(remaining(hundred)).toBe(PER_MINUTE - 100);
    const start = clock.ms;
    clock.advance(10_000);
    const rest = await post(
      ip,
      Array.from({ length: PER_MINUTE - 100 }, (_, i) => list(i)),
    );
    expect(remaining(rest)).toBe(0);
    clock.advance(5_000);
    const batch = [call(0, 'list_vendor_categories', {}), ...Array.from({ length: 99 }, (_, i) => list(i + 1))];
    const refused = await post(ip, batch);
    expect(refused.status, refused.text).toBe(429);
    // One error for the request, not an answer per message: the batch never reached the server.
    expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    // 99 slots are free once the first batch's entries expire (all at `start`): 45 s from now.
    const wait = (start + 60_000 - clock.ms) / 1000;
    expect(refused.body.error.message).toContain(`${PER_MINUTE} a minute`);
    expect(refused.body.error.message).toContain(`retry after ${wait} s`);
    expect(refused.headers.get('retry-after')).toBe(String(wait));
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
    expect(remaining(refused)).toBe(0);
    // A lone message is refused the same way; a lone tool call is the runner's, a tool error with the seconds to wait.
    expect((await post(ip, list(1))).status).toBe(429);
    const lone = await post(ip, call(1, 'list_vendor_categories', {}));
    expect(lone.body.result.structuredContent.error).toMatchObject({ code: 'rate_limit_exceeded' });
    clock.advance(wait * 1000);
    const later = await post(ip, batch);
    expect(later.status, later.text).toBe(200);
    expect(later.body).toHaveLength(100);
    expect(remaining(later)).toBe(0);
  });

  it('a batch that outgrows the whole minute says so, with no Retry-After to wait for', async () => {
    const small = await createTestApp({ database: t.db, now: clock.now, limits: { ...SPEC_POLICY, keylessPerMinute: 3 } });
    const listener = await listenApp(small.app);
    try {
      const res = await fetch(`${listener.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify([list(1), list(2), list(3), list(4)]),
      });
      expect(res.status).toBe(429);
      expect((await res.json()).error.message).toContain('send fewer messages at once');
      expect(res.headers.get('retry-after')).toBeNull();
      expect(res.headers.get('x-ratelimit-remaining')).toBe('3');
    } finally {
      await listener.close();
      await small.close();
    }
  });
});

describe('batches as JSON-RPC 2.0 and MCP revisions define them', () => {
  it('an empty batch is one Invalid Request error with a null id', async () => {
    const res = await post(newIp(), []);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) }, id: null });
  });

  it('MCP 2025-06-18 and later have no batching: a batch is refused; older revisions and no header still batch', async () => {
    const ip = newIp();
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(ip, [list(1), list(2)], { 'mcp-protocol-version': version });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(res.body.error.message).toContain(`batching is not supported in MCP protocol version ${version}`);
    }
    expect((await post(ip, list(1), { 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    expect((await post(ip, [list(1), list(2)], { 'mcp-protocol-version': '2025-03-26' })).body).toHaveLength(2);
    expect((await post(ip, [list(1), list(2)])).body).toHaveLength(2);
  });

  it('a batch of more than 100 messages is an Invalid Request, counted for nothing', async () => {
    const ip = newIp();
    const res = await post(
      ip,
      Array.from({ length: 101 }, (_, i) => list(i)),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('at most 100') } });
    expect(remaining(await post(ip, list(1)))).toBe(PER_MINUTE - 1);
  });
});

describe('tools/call params', () => {
  it('arguments that are not an object are -32602 Invalid params with a short message of ours', async () => {
    const ip = newIp();
    for (const args of [[1], 'venues', 5, null]) {
      const res = await post(ip, call(7, 'search_venues', args));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
      expect(res.body.error.message).toContain('arguments must be an object');
      expect(res.text).not.toMatch(/zod|Expected|expected record|invalid_type|at .+\.(ts|js):\d+/i);
    }
    const inBatch = await post(ip, [call(1, 'search_venues', [1]), list(2)]);
    expect(inBatch.body.find((m: any) => m.id === 1).error.code).toBe(-32602);
    expect(inBatch.body.find((m: any) => m.id === 2).result.tools).toHaveLength(10);
    const noName = await post(ip, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } });
    expect(noName.body.error).toEqual({ code: -32602, message: 'Invalid params: params.name must be a string.' });
  });

  it('a lone surrogate in any argument is the tool error invalid_parameters naming it, as GraphQL refuses it', async () => {
    const graphql = await t.graphql('query($q: String!) { knowledgeSearch(q: $q) { query } }', { q: 'wedding \uD800' });
    const expected = { code: graphql.body.errors[0].extensions.code, message: graphql.body.errors[0].message };
    expect(expected.code).toBe('invalid_parameters');
    const cases: Array<[string, string, string]> = [
      ['search_planning_knowledge', '{"q":"wedding \\ud800"}', 'q'],
      ['search_venues', '{"amenities":["pool","\\udc00x"]}', 'amenities'],
      ['get_venue', '{"slug":"texas/\\ud83d"}', 'slug'],
    ];
    for (const [name, args, param] of cases) {
      const res = await post(newIp(), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.isError, `${name}: ${res.text}`).toBe(true);
      const error = res.body.result.structuredContent.error;
      expect(error).toMatchObject({ code: expected.code, param, type: 'validation_error' });
      if (param === 'q') expect(error.message).toBe(expected.message);
      expect(res.body.result.content[0].text).toContain('unpaired surrogate');
    }
  });
});
