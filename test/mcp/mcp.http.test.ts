// The keyless assistant server (§5.2) driven by the SDK's own client over Streamable HTTP against the real listener.
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import type { HttpServer } from '../../src/http/server.js';
import { listenApp } from '../support/processes.js';
import { addFormats } from '../support/openapi-responses.js';
import { ASSISTANT_TOOLS } from '../../src/mcp/mcp.tools.js';
import { withNullableAnyOf } from '../../src/mcp/mcp.schemas.js';
import { DAY_MS, SPEC_POLICY } from '../../src/limits/limits.policy.js';
import { testClock } from '../limits/clock.js';

const TOOLS = [
  'search_venues',
  'get_venue',
  'search_vendors',
  'list_vendor_categories',
  'get_vendor',
  'estimate_wedding_cost',
  'get_cost_benchmarks',
  'get_regional_cost_range',
  'search_planning_knowledge',
  'search_inspiration',
];

const clock = testClock();
let t: TestApp;
let http: HttpServer;
let base: string;

/** node:http, because fetch does not let a caller choose the Host header. */
function postWithHost(url: string, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { host, origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

async function listen(app: TestApp): Promise<{ http: HttpServer; base: string }> {
  return listenApp(app.app);
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

beforeAll(async () => {
  t = await createTestApp({
    now: clock.now,
    limits: { ...SPEC_POLICY, assistant: { callsPerDay: 1_000_000, venueDetailsPerDay: 1_000_000 }, keylessPerMinute: 1_000_000 },
  });
  ({ http, base } = await listen(t));
});
afterAll(async () => {
  http.server.closeAllConnections();
  await new Promise((r) => http.server.close(r));
  await t.close();
});

/** What REST answers to the same question, without its request_id. */
async function restBody(path: string) {
  const res = await t.rest(path);
  expect(res.status, res.text).toBe(200);
  const { request_id: _id, ...body } = res.body;
  return body;
}
const withoutRequestId = (content: unknown) => {
  const { request_id: _id, ...rest } = content as Record<string, unknown>;
  return rest;
};

describe('tools over Streamable HTTP', () => {
  it('lists the ten tools with titles, model-facing descriptions, derived schemas and read-only annotations', async () => {
    const client = await connect(base);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(JSON.stringify(tool)).not.toContain('$ref');
    }
    const search = tools.find((tool) => tool.name === 'search_venues')!;
    expect((search.inputSchema.properties as any).limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect((search.inputSchema.properties as any).amenities).toMatchObject({ type: 'array' });
    expect(tools.find((tool) => tool.name === 'get_venue')!.inputSchema.required).toEqual(['slug']);
    // The bounds REST enforces, derived through the OpenAPI document.
    const input = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties as any;
    expect(input('search_planning_knowledge').q).toMatchObject({ type: 'string', minLength: 3, maxLength: 300 });
    expect(input('search_venues').city).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    expect(input('search_vendors').price_min).toMatchObject({ type: 'number', minimum: 0, maximum: 10_000_000 });
    expect(input('estimate_wedding_cost').region.enum).toContain('new-york');
    // A nullable is anyOf with null, never a type list: strict MCP clients (Inspector --strict, VS Code) refuse those.
    const typeLists: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'type' && Array.isArray(value)) typeLists.push(where);
        visit(value, `${where}/${key}`);
      }
    };
    for (const tool of tools) visit({ input: tool.inputSchema, output: tool.outputSchema }, tool.name);
    expect(typeLists).toEqual([]);
    await client.close();
  });

  it("a tool's schemas are its route's OpenAPI entry, written out whole: the parameters and the 200 body", async () => {
    const client = await connect(base);
    const { tools } = await client.listTools();
    // The served document, its references resolved by a library (the parser dereferences in place: a copy).
    const doc = (await dereference(structuredClone((await t.rest('/api/v1/openapi.json', { key: null })).body))) as any;
    const operations = new Map<string, any>();
    for (const item of Object.values(doc.paths) as any[]) for (const op of [item.get, item.post]) if (op) operations.set(op.operationId, op);
    for (const tool of tools) {
      const operation = operations.get(ASSISTANT_TOOLS.find((entry) => entry.name === tool.name)!.operationId);
      const properties = tool.inputSchema.properties as Record<string, any>;
      const parameters = (operation.parameters as any[]).filter((p) => p.in === 'query' || p.in === 'path');
      expect(Object.keys(properties).sort(), tool.name).toEqual(parameters.map((p) => p.name).sort());
      for (const parameter of parameters) {
        // The tool's own words for a path value and its page size aside, each bound is the route's.
        const { description: _d, maximum: _max, default: _default, ...bounds } = properties[parameter.name];
        const { maximum: _m, default: _f, ...routeBounds } = parameter.schema;
        expect(bounds, `${tool.name}.${parameter.name}`).toEqual(routeBounds);
      }
      const success = operation.responses['200'].content['application/json'].schema;
      expect((tool.outputSchema as any).anyOf[0], tool.name).toEqual(withNullableAnyOf(success));
    }
    await client.close();
  });

  it('every tool answers what REST answers for the same question; structuredContent validates against its outputSchema', async () => {
    const client = await connect(base);
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const venues = await restBody('/api/v1/venues?state=california&limit=5');
    const vendor = (await restBody('/api/v1/vendors?limit=1')).data as any[];
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['search_venues', { state: 'california', limit: 5 }, '/api/v1/venues?state=california&limit=5'],
      ['search_venues', { amenities: ['pool', 'hot-tub'], capacity_min: 10 }, '/api/v1/venues?amenities=pool,hot-tub&capacity_min=10&limit=10'],
      ['get_venue', { slug: (venues.data as any[])[0].slug }, `/api/v1/venues/${encodeURIComponent((venues.data as any[])[0].slug)}`],
      [
        'search_vendors',
        { category: 'photography', sort_by: 'price_low_to_high', limit: 3 },
        '/api/v1/vendors?category=photography&sort_by=price_low_to_high&limit=3',
      ],
      ['list_vendor_categories', {}, '/api/v1/vendors/categories'],
      ['get_vendor', { slug: vendor[0].slug }, `/api/v1/vendors/${encodeURIComponent(vendor[0].slug)}`],
      ['estimate_wedding_cost', { region: 'texas', event_guests: 120, nights: 3 }, '/api/v1/venues/pricing?region=texas&event_guests=120&nights=3'],
      ['get_cost_benchmarks', { state: 'California' }, '/api/v1/cost-benchmarks?state=California'],
      ['get_regional_cost_range', { state: 'TX', season: 'fall', guests: 150 }, '/api/v1/regional-cost-ranges?state=TX&season=fall&guests=150'],
      ['get_regional_cost_range', { state: 'Atlantis' }, '/api/v1/regional-cost-ranges?state=Atlantis'],
      [
        'search_planning_knowledge',
        { q: 'how much should we budget for a venue', limit: 3 },
        '/api/v1/knowledge/search?q=how+much+should+we+budget+for+a+venue&limit=3',
      ],
      ['search_inspiration', { style: 'rustic', limit: 4 }, '/api/v1/inspiration?style=rustic&limit=4'],
    ];
    for (const [name, args, restPath] of cases) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const outputSchema = tools.find((tool) => tool.name === name)!.outputSchema!;
      const validate = ajv.compile(outputSchema);
      expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(withoutRequestId(result.structuredContent), name).toEqual(await restBody(restPath));
      const text = (result.content as Array<{ type: string; text: string }>)[0];
      expect(text.type).toBe('text');
      expect(text.text.length).toBeGreaterThan(10);
    }
    await client.close();
  });

  it('covered false is a normal result, not an error', async () => {
    const client = await connect(base);
    const result = await client.callTool({ name: 'get_regional_cost_range', arguments: { state: 'Atlantis' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ covered: false, data: null });
    expect((result.structuredContent as any).covered_regions.length).toBeGreaterThan(10);
    await client.close();
  });

  it('search_venues returns at most 50 per call: 50 passes, 51 and 80 are invalid_parameters naming limit; the default is 10', async () => {
    const client = await connect(base);
    await client.listTools(); // from here the client validates every structured result, errors included
    const fifty = await client.callTool({ name: 'search_venues', arguments: { limit: 50 } });
    expect((fifty.structuredContent as any).data).toHaveLength(50);
    const byDefault = await client.callTool({ name: 'search_venues', arguments: {} });
    expect((byDefault.structuredContent as any).data).toHaveLength(10);
    for (const limit of [51, 80]) {
      const refused = await client.callTool({ name: 'search_venues', arguments: { limit } });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as any).error).toMatchObject({ code: 'invalid_parameters', param: 'limit', type: 'validation_error' });
      expect((refused.content as any)[0].text).toContain('at most 50');
    }
    await client.close();
  });

  it('bad input is a tool error with the code, param and hint REST gives for the same mistake', async () => {
    const client = await connect(base);
    await client.listTools();
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['search_venues', { limit: 0 }, '/api/v1/venues?limit=0', 'limit'],
      ['search_venues', { cursor: 'forged' }, '/api/v1/venues?cursor=forged', 'cursor'],
      ['search_venues', { colour: 'red' }, '/api/v1/venues?colour=red', 'colour'],
      ['get_venue', { slug: 'nowhere/no-such-venue' }, `/api/v1/venues/${encodeURIComponent('nowhere/no-such-venue')}`, ''],
      ['get_vendor', { slug: 'no-such-vendor' }, '/api/v1/vendors/no-such-vendor', ''],
      ['estimate_wedding_cost', { region: 'mars' }, '/api/v1/venues/pricing?region=mars', 'region'],
      ['estimate_wedding_cost', { nights: 9 }, '/api/v1/venues/pricing?nights=9', 'nights'],
      ['get_regional_cost_range', {}, '/api/v1/regional-cost-ranges', ''],
      ['search_planning_knowledge', { q: 'ab' }, '/api/v1/knowledge/search?q=ab', 'q'],
      ['search_planning_knowledge', { q: 'venue\u0000' }, '/api/v1/knowledge/search?q=venue%00', 'q'],
      ['search_inspiration', { style: 'gothic' }, '/api/v1/inspiration?style=gothic', 'style'],
    ];
    for (const [name, args, restPath] of cases) {
      const rest = await t.rest(restPath);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      const error = (result.structuredContent as any).error;
      expect(error.code, `${name} ${JSON.stringify(args)}`).toBe(rest.body.error.code);
      expect(error.param).toBe(rest.body.error.param);
      expect(error.hint).toBe(rest.body.error.hint);
      expect(error.doc_url).toBe(rest.body.error.doc_url);
      expect((result.content as any)[0].text).toContain(rest.body.error.code);
      expect(JSON.stringify(result)).not.toMatch(/at .+\.(ts|js):\d+|SELECT |Prisma/);
    }
    await client.close();
  });

  it('resources: the planning notes, listable and readable by stable URI', async () => {
    const client = await connect(base);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThanOrEqual(40);
    const note = resources.find((r) => r.uri.startsWith('knowledge://notes/budgeting/'))!;
    expect(note.mimeType).toBe('text/markdown');
    const read = await client.readResource({ uri: note.uri });
    expect((read.contents[0] as { text: string }).text).toContain('title:');
    await expect(client.readResource({ uri: 'knowledge://notes/../../etc/passwd' })).rejects.toThrow();
    await client.close();
  });
});

describe('HTTP rules of /mcp', () => {
  it('a foreign Origin is refused 403; the service’s own origin and no Origin pass; GET and DELETE are 405', async () => {
    await expect(connect(base, { origin: 'http://evil.example' })).rejects.toThrow();
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(403);
    // DNS rebinding: evil.example resolves to this listener, so the browser sends Host and Origin both naming it.
    const rebound = await postWithHost(`${base}/mcp`, 'evil.example:4000', 'http://evil.example:4000');
    expect(rebound).toBe(403);
    const own = await connect(base, { origin: 'http://api.test' });
    expect((await own.listTools()).tools).toHaveLength(10);
    await own.close();
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('a body over the size limit is 413; a non-JSON body is a JSON-RPC parse error', async () => {
    const big = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }),
    });
    expect(big.status).toBe(413);
    const bad = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(-32700);
  });

  it('the OpenAPI document does not list /mcp', async () => {
    const doc = (await t.rest('/api/v1/openapi.json', { key: null })).body;
    expect(Object.keys(doc.paths).some((p) => p.includes('mcp'))).toBe(false);
  });
});

describe('keyless budgets (injected clock)', () => {
  it('daily tool calls and daily venue lookups per IP end in rate-limit tool errors with the seconds to wait', async () => {
    const limited = await createTestApp({
      database: t.db,
      now: clock.now,
      limits: { ...SPEC_POLICY, assistant: { callsPerDay: 5, venueDetailsPerDay: 2 } },
    });
    const { http: server, base: url } = await listen(limited);
    try {
      const client = await connect(url);
      const slug = ((await client.callTool({ name: 'search_venues', arguments: { limit: 3 } })).structuredContent as any).data[0].slug;
      const start = clock.ms;
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: 'get_venue', arguments: { slug } })).isError).toBeFalsy();
      const thirdDetail = await client.callTool({ name: 'get_venue', arguments: { slug } });
      expect(thirdDetail.isError).toBe(true);
      expect((thirdDetail.structuredContent as any).error).toMatchObject({ code: 'venue_detail_rate_limit_exceeded', retry_after: DAY_MS / 1000 });
      expect((await client.callTool({ name: 'list_vendor_categories', arguments: {} })).isError).toBeFalsy();
      clock.advance(60_000);
      const sixth = await client.callTool({ name: 'list_vendor_categories', arguments: {} });
      expect(sixth.isError).toBe(true);
      const error = (sixth.structuredContent as any).error;
      expect(error.code).toBe('rate_limit_exceeded');
      expect(error.retry_after).toBe((start + DAY_MS - clock.ms) / 1000);
      expect((sixth.content as any)[0].text).toContain(`Retry after ${error.retry_after} s`);
      // Listing tools is not a tool call: it counts only on the keyless minute.
      expect((await client.listTools()).tools).toHaveLength(10);
      clock.advance(start + DAY_MS - clock.ms);
      expect((await client.callTool({ name: 'list_vendor_categories', arguments: {} })).isError).toBeFalsy();
      await client.close();
    } finally {
      server.server.closeAllConnections();
      await new Promise((r) => server.server.close(r));
      await limited.close();
    }
  });

  it('the keyless 400 a minute is shared with other keyless requests of the IP', async () => {
    const limited = await createTestApp({ database: t.db, now: clock.now, limits: { ...SPEC_POLICY, keylessPerMinute: 4 } });
    const { http: server, base: url } = await listen(limited);
    try {
      await fetch(`${url}/api/v1/openapi.json`).then((r) => r.text());
      const client = await connect(url); // initialize + initialized: 2 more
      const call = await client.callTool({ name: 'list_vendor_categories', arguments: {} });
      expect(call.isError).toBeFalsy();
      const refused = await client.callTool({ name: 'list_vendor_categories', arguments: {} });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as any).error).toMatchObject({ code: 'rate_limit_exceeded' });
      expect((refused.structuredContent as any).error.retry_after).toBeGreaterThanOrEqual(1);
      await client.close().catch(() => undefined);
    } finally {
      server.server.closeAllConnections();
      await new Promise((r) => server.server.close(r));
      await limited.close();
    }
  });
});
