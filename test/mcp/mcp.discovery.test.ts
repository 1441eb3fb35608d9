// search_venues' discovery parameters on the keyless assistant server (§5.2), driven by the SDK's own client over
// Streamable HTTP against the real listener, as test/mcp/mcp.http.test.ts does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { SPEC_POLICY } from '../../src/limits/limits.policy.js';

let t: TestApp;
let server: Awaited<ReturnType<typeof listenApp>>;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({
    now: () => new Date('2026-06-15T12:00:00Z'),
    limits: { ...SPEC_POLICY, assistant: { callsPerDay: 1_000_000, venueDetailsPerDay: 1_000_000 }, keylessPerMinute: 1_000_000 },
  });
  server = await listenApp(t.app);
  client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await t?.close();
});

const textOf = (result: Record<string, unknown>) => (result.content as Array<{ type: string; text: string }>)[0].text;

/** What REST answers to the same question, without its request_id. */
async function restBody(path: string) {
  const res = await t.rest(path);
  expect(res.status, res.text).toBe(200);
  const { request_id: _id, ...body } = res.body;
  return body;
}

describe('search_venues discovery', () => {
  it('lists near_city, near, radius_km, bbox, q, sort and facets in its input schema, with their bounds', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((tool) => tool.name === 'search_venues')!;
    const input = search.inputSchema.properties as Record<string, any>;
    expect(input.near_city).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    expect(input.near).toMatchObject({
      type: 'array',
      minItems: 2,
      maxItems: 2,
      prefixItems: [
        { type: 'number', minimum: -90, maximum: 90 },
        { type: 'number', minimum: -180, maximum: 180 },
      ],
    });
    expect(input.radius_km).toMatchObject({ type: 'number', minimum: 1, maximum: 500, default: 50 });
    expect(input.q).toMatchObject({ type: 'string', minLength: 2, maxLength: 100 });
    expect(input.sort).toMatchObject({ type: 'string', enum: ['recommended', 'distance', 'relevance', 'price_asc', 'price_desc', 'capacity_desc'] });
    expect(input.bbox).toMatchObject({ type: 'array', minItems: 4, maxItems: 4 });
    expect(input.facets).toMatchObject({ type: 'array', items: { enum: ['venue_type', 'amenities', 'state', 'price_band', 'capacity_band'] } });
    for (const name of ['near_city', 'near', 'radius_km', 'q', 'sort']) expect(input[name].description, name).toBeTruthy();
    expect(search.inputSchema.required ?? []).toEqual([]);
    // The description tells a model when to use each.
    for (const words of [
      'near_city',
      'near Asheville',
      'near',
      'radius_km',
      'q',
      'lakefront barn',
      'typo',
      'sort=distance',
      'relevance',
      'price_asc',
      'get_venue',
    ]) {
      expect(search.description, words).toContain(words);
    }
    // The success shape of the structured result admits distance_km on an item and facets on the body.
    const success = (search.outputSchema as any).anyOf[0];
    expect(Object.keys(success.properties)).toEqual(expect.arrayContaining(['data', 'pagination', 'facets']));
    expect(Object.keys(success.properties.data.items.properties)).toContain('distance_km');
  });

  it('near_city with sort=distance: structured results with distance_km, nearest first, and a text saying how far', async () => {
    const result = await client.callTool({
      name: 'search_venues',
      arguments: { near_city: 'Asheville', radius_km: 300, sort: 'distance', limit: 5 },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const body = result.structuredContent as any;
    const { request_id: _id, ...withoutId } = body;
    expect(withoutId).toEqual(await restBody('/api/v1/venues?near_city=Asheville&radius_km=300&sort=distance&limit=5'));
    expect(body.data).toHaveLength(5);
    const distances = body.data.map((v: any) => v.distance_km);
    for (const d of distances) {
      expect(typeof d).toBe('number');
      expect(d).toBeLessThanOrEqual(300);
    }
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
    const text = textOf(result);
    expect(text).toMatch(/ km away/);
    for (const v of body.data) expect(text).toContain(`${v.name} — ${v.city}, ${v.state}, ${v.distance_km} km away;`);
    expect(text).toContain(`${body.pagination.total_count} venues match; 5 shown.`);
  });

  it('near and q pass through as REST takes them; without a point the text has no distance', async () => {
    const near = await client.callTool({ name: 'search_venues', arguments: { near: [35.6, -82.55], radius_km: 25, sort: 'distance' } });
    expect(near.isError, JSON.stringify(near.content)).toBeFalsy();
    const { request_id: _a, ...nearBody } = near.structuredContent as any;
    expect(nearBody).toEqual(await restBody('/api/v1/venues?near=35.6,-82.55&radius_km=25&sort=distance&limit=10'));
    expect(nearBody.data.length).toBeGreaterThan(0);
    expect(textOf(near)).toContain(' km away');
    const words = await client.callTool({ name: 'search_venues', arguments: { q: 'tuscanny villa', sort: 'relevance', facets: ['state'] } });
    expect(words.isError, JSON.stringify(words.content)).toBeFalsy();
    const { request_id: _b, ...wordsBody } = words.structuredContent as any;
    expect(wordsBody).toEqual(await restBody('/api/v1/venues?q=tuscanny+villa&sort=relevance&facets=state&limit=10'));
    expect(wordsBody.data.length).toBeGreaterThan(0);
    for (const v of wordsBody.data) expect(v).not.toHaveProperty('distance_km');
    expect(textOf(words)).not.toContain('km away');
  });

  it('a refused discovery parameter is a tool error with the code, param and message REST gives', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ near_city: 'Ashvile' }, '/api/v1/venues?near_city=Ashvile'],
      [{ sort: 'distance' }, '/api/v1/venues?sort=distance'],
      [{ radius_km: 501, near_city: 'asheville' }, '/api/v1/venues?radius_km=501&near_city=asheville'],
      [{ near: [35.6, -82.55], near_city: 'asheville' }, '/api/v1/venues?near=35.6,-82.55&near_city=asheville'],
      [{ q: '!!' }, '/api/v1/venues?q=!!'],
    ];
    for (const [args, path] of cases) {
      const rest = await t.rest(path);
      expect(rest.status, path).toBe(400);
      const result = await client.callTool({ name: 'search_venues', arguments: args });
      expect(result.isError, path).toBe(true);
      const error = (result.structuredContent as any).error;
      expect(error).toMatchObject({ code: rest.body.error.code, param: rest.body.error.param, message: rest.body.error.message });
      expect(textOf(result)).toContain(rest.body.error.code);
    }
    const unknown = await client.callTool({ name: 'search_venues', arguments: { near_city: 'Ashvile' } });
    expect(textOf(unknown)).toContain('Asheville');
  });
});
