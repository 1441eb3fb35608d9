// A venue column documented `/// @detail <text>` in prisma/schema.prisma is a detail field on every surface, with no
// other declaration: these tests walk the tagged columns, so a column added later is held to the same rules unedited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnsTagged, taggedColumns, type ModelField } from '../../src/graphql/model-columns.js';
import { snakeCase } from '../../src/rest/route.js';
import { createTestApp, type TestApp } from '../support/app.js';

const field = (name: string, documentation: string | undefined, more: Partial<ModelField> = {}): ModelField => ({
  name,
  kind: 'scalar',
  type: 'String',
  isList: false,
  isRequired: false,
  documentation,
  ...more,
});

describe('columnsTagged', () => {
  it('takes the columns whose documentation begins with the tag, in model order, the rest of it as the description', () => {
    const fields = [
      field('a', '@detail First\n   line two.'),
      field('b', 'Plain documentation, not shown.'),
      field('c', undefined),
      field('d', '@detail Listed.', { type: 'Int', isList: true, isRequired: true }),
    ];
    expect(columnsTagged('M', fields, 'detail')).toEqual([
      { name: 'a', type: 'String', list: false, nullable: true, description: 'First line two.' },
      { name: 'd', type: 'Int', list: true, nullable: false, description: 'Listed.' },
    ]);
  });

  it('refuses what a tag cannot serve, naming the column', () => {
    const refused = (f: ModelField) => () => columnsTagged('M', [f], 'detail');
    expect(refused(field('x', '@detail'))).toThrow('M.x: documentation beginning with @ must be @detail and a description');
    expect(refused(field('x', '@details Typo.'))).toThrow('M.x: documentation beginning with @ must be @detail');
    expect(refused(field('x', '@detail Money.', { type: 'Decimal' }))).toThrow('M.x: a @detail column must be a String, Int, Float');
    expect(refused(field('x', '@detail Json.', { type: 'Json' }))).toThrow('M.x: a @detail column must be');
    expect(refused(field('x', '@detail Rows.', { kind: 'object', type: 'VenuePhoto' }))).toThrow('M.x: a @detail column must be');
  });

  it("reads Venue's from the generated model", () => {
    const names = taggedColumns('Venue', 'detail').map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['description', 'accommodates', 'categories', 'totalPhotos']));
    expect(() => taggedColumns('Nope', 'detail')).toThrow('No model Nope in the Prisma schema');
  });
});

describe('every @detail column of Venue', () => {
  const COLUMNS = taggedColumns('Venue', 'detail');
  let t: TestApp;
  let venue: Record<string, unknown> & { slug: string };

  beforeAll(async () => {
    t = await createTestApp({ limits: 'spec' });
    venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, description: { not: null } }, orderBy: { slug: 'asc' } });
  });
  afterAll(() => t.close());

  it('is in the REST detail under its snake_case name with the stored value, described in OpenAPI', async () => {
    const res = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
    expect(res.status, res.text).toBe(200);
    const openapi = (await t.rest('/api/v1/openapi.json')).body;
    // The schema of the detail route's `data`, wherever the document keeps it.
    const ref = (schema: { $ref?: string }) => (schema.$ref ? openapi.components.schemas[schema.$ref.split('/').pop()!] : schema);
    const answer = ref(openapi.paths['/venues/{slug}'].get.responses['200'].content['application/json'].schema);
    const properties = ref(answer.properties.data).properties;
    for (const { name, description } of COLUMNS) {
      expect(res.body.data[snakeCase(name)], name).toEqual(venue[name]);
      expect(properties[snakeCase(name)]?.description, name).toBe(description);
    }
  });

  it('is a GraphQL field of its type and nullability whose description names the lookup it costs', async () => {
    type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
    const sdl = (r: TypeRef): string => (r.kind === 'NON_NULL' ? `${sdl(r.ofType!)}!` : r.kind === 'LIST' ? `[${sdl(r.ofType!)}]` : r.name!);
    const res = await t.graphql(
      `{ __type(name: "Venue") { fields { name description type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`,
    );
    const fields = new Map<string, { description: string; type: TypeRef }>(res.body.data.__type.fields.map((f: { name: string }) => [f.name, f]));
    for (const { name, type, list, nullable, description } of COLUMNS) {
      const f = fields.get(name)!;
      expect(f.description, name).toBe(`${description} Detail field: each venue answered with one counts as a venue detail lookup (20 a day).`);
      expect(sdl(f.type), name).toBe(`${list ? `[${type}!]` : type}${nullable ? '' : '!'}`);
    }
  });

  it('costs each venue answered with it a detail lookup: 21 venues of a search are refused whole', async () => {
    for (const { name } of COLUMNS) {
      const over = await t.graphql(`{ venues(first: 21) { nodes { slug ${name} } } }`);
      expect(over.status, `${name}: ${over.text}`).toBe(429);
      expect(over.body.errors[0].extensions.code).toBe('venue_detail_rate_limit_exceeded');
      const free = await t.graphql(`{ venues(first: 21) { nodes { slug name } } }`);
      expect(free.status, free.text).toBe(200);
    }
    // The refusals used none of the day's 20: one venue's detail still answers on REST.
    const res = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
    expect(res.status, res.text).toBe(200);
  });
});
