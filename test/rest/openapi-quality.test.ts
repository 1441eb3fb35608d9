// The OpenAPI document as clients meet it: a real linter, and a client generated from it making typed calls.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../support/app.js';
import { repoRoot } from '../support/processes.js';

/** Findings reviewed and accepted, with the reason. Anything else fails the test. */
const WAIVERS: Array<{ ruleId: string; pointer: string; reason: string }> = [
  {
    ruleId: 'no-server-example.com',
    pointer: '#/servers/0/url',
    reason: 'The server URL is the running instance’s BASE_URL: localhost on a laptop and in tests, the public origin in production.',
  },
];

let t: TestApp;
let doc: Record<string, any>;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.rest('/api/v1/openapi.json', { key: null })).body;
});
afterAll(() => t.close());

describe('OpenAPI document quality', () => {
  it('passes @redocly/openapi-core recommended rules with no error or warning outside the reviewed waivers', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const unwaived = problems.filter((p) => !WAIVERS.some((w) => w.ruleId === p.ruleId && p.location?.[0]?.pointer === w.pointer));
    expect(unwaived.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)).toEqual([]);
  });

  it('has tag descriptions, license, contact and formats for URLs, timestamps, ids, dates and e-mails', () => {
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.info.contact.url).toBe(`${BASE_URL}/developers`);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    const text = JSON.stringify(doc);
    for (const format of ['uri', 'date-time', 'uuid', 'date', 'email']) expect(text).toContain(`"format":"${format}"`);
    const amenities = doc.paths['/venues'].get.parameters.find((p: { name: string }) => p.name === 'amenities');
    expect(amenities.description).toMatch(/repeated/);
  });

  it('lists closed sets as enums, in parameters and in responses (currencies, categories, sorts, seasons, §2.12 tags, literals)', async () => {
    /** Every enum a property or parameter of this name has anywhere in the document. */
    const enumsOf = (name: string) => {
      const found: unknown[][] = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const record = node as Record<string, any>;
        const property = record.properties?.[name];
        // String-valued only (a season object, say, is a $ref).
        if (property && !property.$ref && !property.oneOf?.some((s: Record<string, unknown>) => s.$ref)) {
          found.push(property.enum ?? property.items?.enum ?? []);
        }
        if (record.name === name && record.in === 'query') found.push(record.schema?.enum ?? record.schema?.items?.enum ?? []);
        Object.values(record).forEach(visit);
      };
      visit(doc);
      return found;
    };
    const expectEnum = (name: string, values: string[]) => {
      const found = enumsOf(name);
      expect(found.length, name).toBeGreaterThan(0);
      for (const list of found) expect(list.filter((v) => v !== null).sort(), name).toEqual([...values].sort());
    };
    expectEnum('styles', ['rustic', 'modern', 'bohemian', 'coastal', 'luxury', 'romantic', 'classic', 'minimalist']);
    expectEnum('moods', ['elegant', 'romantic', 'serene', 'intimate', 'grand', 'celebratory', 'joyful', 'dramatic']);
    expectEnum('sort_by', ['newest', 'price_low_to_high', 'price_high_to_low', 'experience', 'weddings_completed']);
    expect(enumsOf('price_unit')).toEqual(expect.arrayContaining([['per_stay'], ['per_person', 'per_event', 'per_hour', 'per_item', null]]));
    // The 11 vendor categories: the enum is the categories endpoint's own list.
    const categories = (await t.rest('/api/v1/vendors/categories')).body.data.map((c: { slug: string }) => c.slug).sort();
    expect(enumsOf('service_category').length).toBeGreaterThan(0);
    for (const list of enumsOf('service_category')) expect([...list].sort()).toEqual(categories);
    expect(enumsOf('currency').flat()).toEqual(expect.arrayContaining(['USD', 'EUR', 'AUD']));
    // Seasons: the estimator's and the photos' are closed; regional ranges take any month name or number, so not there.
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(param('/venues/pricing', 'season').enum).toEqual(['peak', 'shoulder', 'off']);
    expect(param('/inspiration', 'season').enum).toEqual(['spring', 'summer', 'fall', 'winter']);
    expect(doc.components.schemas.InspirationPhoto.properties.season.enum).toEqual(['spring', 'summer', 'fall', 'winter', null]);
    expect(doc.components.schemas.PricingResult.properties.parameters.properties.season.enum).toEqual(['peak', 'shoulder', 'off']);
  });

  it('states the bounds the server enforces, as the spec gives them (§2.11, §4.1, §4.6, §4.7, §4.13–4.14)', () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    // §4.6: q is 3 to 300 characters (once trimmed: the pattern wants three from a non-space to a non-space).
    const q = param('/knowledge/search', 'q');
    expect(q).toMatchObject({ type: 'string', minLength: 3, maxLength: 300 });
    expect(['ab', '  ab  ', ' a b '].map((text) => new RegExp(q.pattern, 'u').test(text))).toEqual([false, false, true]);
    expect(param('/knowledge/search', 'limit')).toMatchObject({ minimum: 1, maximum: 10 });
    // §4.14: the photo id is a UUID.
    expect(param('/inspiration/{id}', 'id')).toMatchObject({ type: 'string', format: 'uuid' });
    expect(param('/inspiration', 'offset')).toMatchObject({ minimum: 0, maximum: 1_000_000 });
    // Text filters are not empty (nor only spaces); prices are bounded on both sides.
    for (const path of ['/venues', '/vendors', '/regional-cost-ranges']) {
      const city = param(path, 'city');
      expect(city, path).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
      expect(new RegExp(city.pattern, 'u').test('   '), path).toBe(false);
    }
    for (const path of ['/venues', '/vendors']) {
      for (const name of ['price_min', 'price_max'])
        expect(param(path, name), `${path} ${name}`).toMatchObject({ type: 'number', minimum: 0, maximum: 10_000_000 });
    }
    expect(param('/vendors', 'category').enum).toHaveLength(11);
    expect(param('/venues/{slug}', 'slug')).toMatchObject({ maxLength: 300, pattern: expect.any(String) });
    expect(param('/regional-cost-ranges', 'guests')).toMatchObject({ minimum: 1, maximum: 2000 });
    // §2.11: the inquiry bodies' ranges, as schema keywords rather than prose.
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties;
    const venue = body('/inquiries/venue');
    expect(venue.property_slug).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(venue.start_date).toMatchObject({ format: 'date', minLength: 1 });
    expect(venue.event_guests).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000 });
    expect(venue.overnight_guests).toMatchObject({ type: 'integer', minimum: 0, maximum: 10_000 });
    expect(venue.guest_name).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(venue.guest_email).toMatchObject({ format: 'email', maxLength: 500 });
    expect(venue.guest_phone).toMatchObject({ maxLength: 100 });
    expect(venue.message).toMatchObject({ maxLength: 5000 });
    expect(venue.estimated_price).toMatchObject({ type: 'integer', minimum: 0, maximum: 100_000 });
    const vendor = body('/inquiries/vendor');
    expect(vendor.event_guests).toMatchObject({ minimum: 0, maximum: 10_000 });
    expect(vendor.event_date).toMatchObject({ format: 'date' });
    for (const name of ['event_location', 'service_needed']) expect(vendor[name]).toMatchObject({ maxLength: 500 });
    expect(vendor.budget_range).toMatchObject({ maxLength: 100 });
    expect(doc.paths['/inquiries/venue'].post.parameters[0].schema).toEqual({ type: 'string', minLength: 1, maxLength: 255 });
    // What a schema cannot say: the rules between inputs (IDL4OAS).
    expect(doc.paths['/venues'].get['x-dependencies']).toEqual([
      'capacity_min <= capacity_max',
      'price_min <= price_max',
      'ZeroOrOne(near, near_city, bbox)',
      'IF radius_km THEN Or(near, near_city)',
      "IF sort=='distance' THEN Or(near, near_city)",
      "IF sort=='relevance' THEN q",
    ]);
    expect(doc.paths['/vendors'].get['x-dependencies']).toEqual(['price_min <= price_max']);
    expect(doc.paths['/regional-cost-ranges'].get['x-dependencies']).toEqual(['Or(slug, state, city)']);
    expect(doc.paths['/inquiries/venue'].post['x-dependencies']).toEqual(['start_date < end_date']);
  });

  it('says of every string input that text PostgreSQL cannot store (NUL) is refused, and takes formats from scalars', () => {
    const inputs: Array<[string, Record<string, any>]> = [];
    for (const [path, item] of Object.entries(doc.paths) as Array<[string, Record<string, any>]>) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) if (p.in !== 'header') inputs.push([`${method} ${path} ${p.name}`, p.schema.items ?? p.schema]);
        const properties = op.requestBody?.content['application/json'].schema.properties ?? {};
        for (const [name, schema] of Object.entries(properties)) inputs.push([`${method} ${path} ${name}`, schema as Record<string, any>]);
      }
    }
    const strings = inputs.filter(([, schema]) => schema.type === 'string');
    expect(strings.length).toBeGreaterThan(30);
    for (const [where, schema] of strings) {
      if (schema.enum) continue;
      expect(schema.pattern, where).toBeTruthy();
      expect(new RegExp(schema.pattern, 'u').test('a\u0000b'), where).toBe(false);
    }
    // Response formats come from the field's scalar (Date, DateTime, URL, UUID), whatever the field is called.
    const { schemas } = doc.components;
    expect(schemas.Testimonial.properties.event_date.format).toBe('date');
    expect(schemas.Vendor.properties.website.format).toBe('uri');
    expect(schemas.InspirationPhoto.properties.id.format).toBe('uuid');
    expect(schemas.InquiryResult.properties.inquiry_id.format).toBe('uuid');
  });

  it('a client generated with openapi-typescript + openapi-fetch makes typed calls to every GET route, and they type-check', async () => {
    const types = astToString(await openapiTS(doc as never));
    const dir = join(repoRoot, '.tmp', `typed-client-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'api.d.ts'), types);
    const getPaths = Object.entries(doc.paths)
      .filter(([, item]: [string, any]) => item.get)
      .map(([path]) => path);
    // Typed calls to every GET route (path parameters filled), checked by tsc against the generated types.
    const calls = getPaths.map((path) => {
      const required = (doc.paths[path].get.parameters ?? []).filter((p: { in: string; required?: boolean }) => p.in === 'query' && p.required);
      const query = required.length ? `query: { ${required.map((p: { name: string }) => `${p.name}: 'x'`).join(', ')} }, ` : '';
      const pathParams = path.includes('{slug}') ? `path: { slug: 'x' }` : path.includes('{id}') ? `path: { id: 'x' }` : '';
      return `  await client.GET('${path}', { params: { ${query}${pathParams} } });`;
    });
    writeFileSync(
      join(dir, 'client.ts'),
      `import createClient from 'openapi-fetch';\nimport type { paths } from './api.js';\nconst client = createClient<paths>({ baseUrl: 'http://localhost:4000/api/v1' });\n` +
        `export async function all() {\n${calls.join('\n')}\n  const venues = await client.GET('/venues', { params: { query: { state: 'texas', amenities: ['pool', 'hot-tub'], limit: 5 } } });\n` +
        `  const first: string | undefined = venues.data?.data[0]?.slug;\n  return first;\n}\n`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['client.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
      encoding: 'utf8',
    });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);

    // The same client at run time, against the app: openapi-fetch's default serialisation (arrays as repeated
    // parameters) is accepted.
    const client = createClient<any>({
      baseUrl: `${BASE_URL}/api/v1`,
      headers: { authorization: `Bearer ${t.keys.pro}` },
      fetch: (request: Request) => t.app.fetch(request),
    });
    const venues = await client.GET('/venues', { params: { query: { state: 'texas', amenities: ['pool', 'hot-tub'], limit: 5 } } });
    expect(venues.response.status).toBe(200);
    for (const venue of venues.data.data) expect(venue.amenities).toEqual(expect.arrayContaining(['pool', 'hot-tub']));
    for (const path of getPaths.filter((p) => !p.includes('{'))) {
      const query = path === '/knowledge/search' ? { q: 'venue budget' } : path === '/regional-cost-ranges' ? { state: 'texas' } : {};
      const res = await client.GET(path, { params: { query } });
      expect(res.response.status, path).toBe(200);
    }
  }, 60_000);
});
