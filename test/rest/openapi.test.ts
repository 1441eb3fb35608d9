import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import {
  GraphQLEnumType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, statusOf, type ErrorCode } from '../../src/errors/catalogue.js';
import { getSchema } from '../../src/graphql/schema.js';
import { compileRoute, orderRoutes } from '../../src/rest/adapter.js';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import type { RestRoute } from '../../src/rest/route.js';
import { restRoutes } from '../../src/rest/routes.js';
import { expectMatchesOpenApi, responseValidator } from '../support/openapi-responses.js';

const BASE_URL = 'http://api.test';

// The document is JSON of many nested shapes; tests navigate it freely.
type Loose = any;

function build(routes: RestRoute[] = restRoutes): OpenAPIV3_1.Document {
  const schema = getSchema();
  return buildOpenApiDocument(orderRoutes(routes.map((r) => compileRoute(r, schema))), schema, BASE_URL);
}

async function validity(doc: OpenAPIV3_1.Document) {
  // The parser dereferences in place; keep the original intact.
  const result = await validate(structuredClone(doc));
  return { valid: result.valid, errors: result.valid ? '' : compileErrors(result) };
}

const operations = (doc: OpenAPIV3_1.Document) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, OpenAPIV3_1.OperationObject>).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

const doc = build();

/** A nullable object is `oneOf: [object, null]`; its object branch. */
const withoutNull = (schema: Loose) => (schema.oneOf ? schema.oneOf.find((s: Loose) => s.type !== 'null') : schema);

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const { valid, errors } = await validity(doc);
    expect(valid, errors).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it.each<[string, (d: Loose) => void]>([
    ['a response without a description', (d) => delete d.paths['/venues'].get.responses['200'].description],
    ['an optional path parameter', (d) => (d.paths['/venues/{slug}'].get.parameters[0].required = false)],
    ['a duplicate operationId', (d) => (d.paths['/vendors/{slug}'].get.operationId = 'getVenue')],
    ['a parameter in an unknown location', (d) => (d.paths['/venues'].get.parameters[0].in = 'body')],
  ])('the validator rejects a copy with %s', async (_name, breakIt) => {
    const broken = structuredClone(doc) as Loose;
    breakIt(broken);
    expect((await validity(broken)).valid).toBe(false);
  });

  it('is plain JSON, deterministic, and versioned 1.0.0 under /api/v1', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(build()).toEqual(doc);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toBeTruthy();
    expect(doc.servers).toEqual([{ url: `${BASE_URL}/api/v1` }]);
    for (const words of [
      'Authorization: Bearer',
      'X-Service-Key',
      'route_not_found',
      'invalid_parameters',
      'per_night_average',
      '2027-01-06',
      'Retry-After',
    ]) {
      expect(doc.info.description).toContain(words);
    }
  });

  it('lists exactly the route table, plus openapi.json itself', () => {
    const listed = operations(doc)
      .map(({ path, method, op }) => `${method} ${path} ${op.operationId}`)
      .sort();
    const expected = [...restRoutes.map((r) => `${r.method} ${r.path} ${r.operationId}`), 'GET /openapi.json getOpenApiDocument'].sort();
    expect(listed).toEqual(expected);
    for (const { op } of operations(doc)) expect(doc.tags?.map((t) => t.name)).toEqual(expect.arrayContaining(op.tags ?? []));
  });

  it('requires a key on every route but openapi.json', () => {
    expect(doc.security).toEqual([{ bearer: [] }, { serviceKey: [] }]);
    expect(doc.components?.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      serviceKey: { type: 'apiKey', in: 'header', name: 'X-Service-Key' },
    });
    for (const { path, op } of operations(doc)) expect(op.security, path).toEqual(path === '/openapi.json' ? [] : undefined);
  });

  it('documents GET /venues parameters from the route variables and paramDocs', () => {
    const params = (doc.paths!['/venues']!.get!.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
    expect(params.map((p) => p.name)).toEqual([
      'state',
      'city',
      'venue_type',
      'capacity_min',
      'capacity_max',
      'price_min',
      'price_max',
      'bedrooms_min',
      'amenities',
      'near',
      'near_city',
      'radius_km',
      'bbox',
      'q',
      'sort',
      'facets',
      'limit',
      'cursor',
    ]);
    expect(params.every((p) => p.in === 'query' && p.required === false)).toBe(true);
    const byName = Object.fromEntries(params.map((p) => [p.name, p as Loose]));
    expect(byName.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(byName.price_min.schema.type).toBe('number');
    expect(byName.amenities).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string' } },
      example: ['pool', 'hot-tub'],
    });
    // Discovery's parameters carry every bound the server enforces.
    expect(byName.near.schema).toMatchObject({
      type: 'array',
      prefixItems: [
        { type: 'number', minimum: -90, maximum: 90 },
        { type: 'number', minimum: -180, maximum: 180 },
      ],
      minItems: 2,
      maxItems: 2,
    });
    expect(byName.near.example).toEqual([35.6, -82.55]);
    expect(byName.bbox.schema).toMatchObject({ type: 'array', minItems: 4, maxItems: 4 });
    expect(byName.radius_km.schema).toMatchObject({ type: 'number', minimum: 1, maximum: 500 });
    expect(byName.q.schema).toMatchObject({ type: 'string', minLength: 2, maxLength: 100 });
    expect(byName.near_city.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    expect(byName.sort.schema.enum).toEqual(['recommended', 'distance', 'relevance', 'price_asc', 'price_desc', 'capacity_desc']);
    expect(byName.facets.schema.items.enum).toEqual(['venue_type', 'amenities', 'state', 'price_band', 'capacity_band']);
    const slug = (doc.paths!['/venues/{slug}']!.get!.parameters as Loose[])[0];
    expect(slug).toMatchObject({ name: 'slug', in: 'path', required: true, schema: { type: 'string' }, example: 'california/napa/villa-rosa' });
    expect(slug.description).toContain('%2F');
  });

  it("falls back to the GraphQL argument's description and default", () => {
    const params = doc.paths!['/vendors']!.get!.parameters as Loose[];
    const location = params.find((p) => p.name === 'location');
    const argument = getSchema()
      .getQueryType()!
      .getFields()
      .vendors.args.find((a) => a.name === 'location')!;
    expect(location.description).toBe(argument.description);
    expect(params.find((p) => p.name === 'sort_by').schema).toMatchObject({ default: 'newest', enum: expect.arrayContaining(['price_low_to_high']) });
  });

  it('gives the venue detail every §2.3 field, with pricing per §2.1', async () => {
    const full = (await dereference(structuredClone(doc))) as Loose;
    const body = full.paths['/venues/{slug}'].get.responses['200'].content['application/json'].schema;
    expect(body.required).toEqual(['data', 'request_id']);
    // A missing venue is a 404, so a 200's data is never null.
    expect(body.properties.data.oneOf).toBeUndefined();
    const venue = withoutNull(body.properties.data);
    const fields = [
      'slug',
      'name',
      'city',
      'state',
      'country',
      'property_type',
      'venue_type',
      'latitude',
      'longitude',
      'capacity_min',
      'capacity_max',
      'bedrooms',
      'beds',
      'bathrooms',
      'gathering_spaces',
      'price_range',
      'pricing',
      'hero_image',
      'seo_description',
      'amenities',
      'url',
      'description',
      'accommodates',
      'categories',
      'photos',
      'total_photos',
      'testimonials',
    ];
    expect(Object.keys(venue.properties)).toEqual(expect.arrayContaining(fields));
    expect(venue.required).toEqual(expect.arrayContaining(fields));
    expect(venue.properties.slug.type).toBe('string');
    expect(venue.properties.country.type).toEqual(['string', 'null']);
    expect(venue.properties.latitude.type).toEqual(['number', 'null']);
    expect(venue.properties.amenities).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(venue.properties.photos.items.properties).toHaveProperty('is_featured');
    const pricing = venue.properties.pricing;
    expect(Object.keys(pricing.properties)).toEqual([
      'price_unit',
      'currency',
      'min_nights',
      'weekday_base',
      'weekend_base',
      'extra_night',
      'starting_total',
      'rate_date',
    ]);
    expect(pricing.properties.starting_total.oneOf).toContainEqual({ type: 'null' });
    const total = withoutNull(pricing.properties.starting_total);
    expect(total.properties).toMatchObject({
      amount: { type: 'number' },
      nights: { type: 'integer' },
      rate: { type: 'string' },
      includes_fees: { type: 'boolean' },
    });
  });

  it('gives vendor search its page envelope with category_stats', async () => {
    const full = (await dereference(structuredClone(doc))) as Loose;
    const body = full.paths['/vendors'].get.responses['200'].content['application/json'].schema;
    expect(body.required).toEqual(['data', 'pagination', 'category_stats', 'request_id']);
    expect(body.properties.data.type).toBe('array');
    expect(body.properties.data.items.properties).toHaveProperty('business_name');
    expect(body.properties.pagination.properties).toMatchObject({
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'] },
      total_count: { type: 'integer' },
    });
    expect(body.properties.category_stats.description).toBeTruthy();
  });

  it('answers every error status with the Error schema and catalogue codes of that status', () => {
    const catalogue = Object.keys(ERROR_CATALOGUE);
    expect((doc.components!.schemas!.Error as Loose).properties.error.properties.code.enum).toEqual(catalogue);
    for (const { path, method, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses ?? {}) as [string, Loose][]) {
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
        if (Number(status) < 400) continue;
        const [base, narrowing] = response.content['application/json'].schema.allOf;
        expect(base, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        const codes: ErrorCode[] = narrowing.properties.error.properties.code.enum;
        for (const code of codes) {
          expect(catalogue, `${method} ${path}`).toContain(code);
          expect(statusOf(code), `${method} ${path} ${code}`).toBe(Number(status));
        }
        expect(response.description.startsWith(`${codes.join(', ')}.`)).toBe(true);
        if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
      }
    }
  });

  it("lists each route's own codes and the common ones", () => {
    const responses = doc.paths!['/venues']!.get!.responses as Loose;
    expect(responses['400'].description.startsWith('invalid_parameters, invalid_cursor.')).toBe(true);
    expect(responses['401'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toEqual([
      'missing_api_key',
      'invalid_api_key',
    ]);
    expect(responses['429'].description.startsWith('rate_limit_exceeded.')).toBe(true);
    expect(responses['500'].description.startsWith('internal_error, database_error.')).toBe(true);
    for (const route of restRoutes) {
      const documented = Object.values(doc.paths![route.path]![route.method.toLowerCase() as 'get']!.responses!)
        .map((r: Loose) => r.description)
        .join('\n');
      for (const code of route.errors) expect(documented, `${route.operationId} ${code}`).toContain(`\`${code}\``);
    }
  });

  it("derives a response from the route's own selection (aliases, @include, POST → 201 with a body)", () => {
    const extra: RestRoute[] = [
      {
        method: 'GET',
        path: '/probe/{slug}',
        operationId: 'probe',
        summary: 'Probe',
        tag: 'Probe',
        errors: [],
        envelope: { kind: 'object' },
        document:
          'query probe($slug: String!, $withPhotos: Boolean!) { venue(slug: $slug) { slug heroImage photos @include(if: $withPhotos) { url } } }',
      },
      {
        method: 'POST',
        path: '/probe',
        operationId: 'probePost',
        summary: 'Probe POST',
        tag: 'Probe',
        errors: [],
        envelope: { kind: 'object' },
        document: 'query probePost($slug: String!, $withName: Boolean = false) { venue(slug: $slug) { slug name @include(if: $withName) } }',
      },
    ];
    const probed = build([...restRoutes, ...extra]) as Loose;
    const data = probed.components.schemas.ProbeResponse.properties.data;
    const venue = probed.components.schemas[withoutNull(data).$ref.split('/').pop()];
    expect(Object.keys(venue.properties)).toEqual(['slug', 'hero_image', 'photos']);
    expect(venue.required).toEqual(['slug', 'hero_image']);
    const post = probed.paths['/probe'].post;
    expect(Object.keys(post.responses)[0]).toBe('201');
    expect(post.requestBody.content['application/json'].schema).toMatchObject({
      properties: { slug: { type: 'string' }, with_name: { type: 'boolean', default: false } },
      required: ['slug'],
    });
  });

  it('maps GraphQL types, deprecations and schema extensions (jsonSchema, semanticNonNull)', async () => {
    const Json = new GraphQLScalarType({ name: 'JSON' });
    const Colour = new GraphQLEnumType({ name: 'Colour', values: { red: {}, blue: {} } });
    const Thing = new GraphQLObjectType({
      name: 'Thing',
      description: 'A thing.',
      fields: {
        name: { type: new GraphQLNonNull(GraphQLString), description: 'Its name.' },
        colour: { type: Colour },
        perNight: { type: GraphQLInt, deprecationReason: 'Use perNightAverage.' },
        tags: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
        counts: { type: new GraphQLNonNull(Json), extensions: { jsonSchema: { type: 'object', additionalProperties: { type: 'integer' } } } },
        anything: { type: Json },
      },
    });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          thing: {
            type: Thing,
            args: { id: { type: new GraphQLNonNull(GraphQLString), description: 'Thing id.' } },
            extensions: { semanticNonNull: true },
          },
        },
      }),
    });
    const route: RestRoute = {
      method: 'GET',
      path: '/things/{id}',
      operationId: 'getThing',
      summary: 'Thing',
      tag: 'Things',
      errors: [],
      envelope: { kind: 'object' },
      document: 'query getThing($id: String!) { thing(id: $id) { __typename name colour perNight tags counts anything } }',
    };
    const small = buildOpenApiDocument([compileRoute(route, schema)], schema, BASE_URL) as Loose;
    expect((await validity(small)).errors).toBe('');
    expect(small.paths['/things/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(small.paths['/things/{id}'].get.parameters[0].description).toMatch(/^Thing id\./);
    expect(small.components.schemas.GetThingResponse.properties.data).toEqual({ $ref: '#/components/schemas/Thing' });
    expect(small.components.schemas.Thing).toEqual({
      type: 'object',
      description: 'A thing.',
      properties: {
        __typename: { type: 'string', const: 'Thing' },
        name: { type: 'string', description: 'Its name.' },
        colour: { type: ['string', 'null'], enum: ['red', 'blue', null] },
        per_night: { type: ['integer', 'null'], description: 'Deprecated: Use perNightAverage.', deprecated: true },
        tags: { type: ['array', 'null'], items: { type: 'string' } },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
        anything: {},
      },
      required: ['__typename', 'name', 'colour', 'per_night', 'tags', 'counts', 'anything'],
    });
  });
});

describe('expectMatchesOpenApi', () => {
  const categories = { data: [{ name: 'Photography', slug: 'photography', vendor_count: 12 }], request_id: 'req_abc' };
  const notFound = {
    error: {
      type: 'not_found',
      code: 'venue_not_found',
      message: 'No published venue has this slug.',
      request_id: 'req_abc',
      doc_url: `${BASE_URL}/developers/errors#venue_not_found`,
    },
  };

  it('compiles every response schema of the document as strict JSON Schema 2020-12', () => {
    for (const { path, method, op } of operations(doc)) {
      for (const status of Object.keys(op.responses ?? {})) expect(() => responseValidator(doc, method, path, Number(status))).not.toThrow();
    }
  });

  it('accepts bodies that match, by template or by request path', () => {
    expectMatchesOpenApi(doc, 'GET', '/vendors/categories', 200, categories);
    expectMatchesOpenApi(doc, 'GET', '/api/v1/venues/california%2Fnapa%2Fx?x=1', 404, notFound);
    expectMatchesOpenApi(doc, 'GET', `${BASE_URL}/api/v1/openapi.json`, 200, JSON.parse(JSON.stringify(doc)));
  });

  it.each<[string, string, number, unknown]>([
    ['a wrong type', '/vendors/categories', 200, { ...categories, data: [{ ...categories.data[0], vendor_count: '12' }] }],
    ['a missing field', '/vendors/categories', 200, { data: categories.data }],
    ['an undocumented field', '/vendors/categories', 200, { ...categories, extra: 1 }],
    ['a code of another status', '/venues/{slug}', 404, { error: { ...notFound.error, code: 'invalid_slug' } }],
    ['an undocumented status', '/vendors/categories', 404, notFound],
  ])('rejects %s', (_name, path, status, body) => {
    expect(() => expectMatchesOpenApi(doc, 'GET', path, status, body)).toThrow();
  });
});
