// The contract as a generated client reads it: requests made from the served OpenAPI document alone (parameters and
// bodies from their schemas, the rules between inputs from `x-dependencies`), sent through the production entry. A
// schema-valid request is never refused (400) and never fails (5xx), and every answer is the one the document
// describes. A bound the server enforces that the document lacks is a gap in its declaration (the zod input schemas,
// src/graphql/input-schema.ts), never a case for this test to avoid. Replay a run with FUZZ_SEED=<seed>.
import { randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { addFormats, responseValidator } from '../support/openapi-responses.js';
import { arbitraryOf, plainDecimal, type Schema } from '../support/schema-arbitrary.js';

/** Requests per operation (2,140 in all, plus the next pages followed); an operation not listed gets DEFAULT_RUNS. */
const RUNS: Record<string, number> = {
  searchVenues: 240,
  getVenue: 150,
  searchVendors: 240,
  listVendorCategories: 20,
  getVendor: 110,
  estimatePricing: 200,
  getCostBenchmarks: 140,
  getRegionalCostRange: 200,
  searchKnowledge: 80,
  searchInspiration: 180,
  getInspirationPhoto: 120,
  listBlogPosts: 120,
  getBlogPost: 90,
  listBlogTags: 20,
  createVenueInquiry: 110,
  createVendorInquiry: 110,
  getOpenApiDocument: 10,
};
const DEFAULT_RUNS = 100;

/**
 * Parameters whose values the server issues: a cursor is only ever the previous page's `pagination.next_cursor`, sent
 * with the same filters (anything else is invalid_cursor by design), so it is followed, never generated.
 */
const SERVER_ISSUED = new Set(['cursor']);

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Operation {
  method: 'GET' | 'POST';
  template: string;
  op: OpenAPIV3_1.OperationObject;
}

/** One generated request: its path values (and whether each came from the catalogue), query, body. */
interface Case {
  path: Record<string, { value: string; listed: boolean }>;
  query: Record<string, unknown>;
  body?: Record<string, unknown>;
}

interface Sent {
  operation: Operation;
  url: string;
  body?: string;
  response: TestResponse;
  /** A path identifier was generated, not taken from the catalogue: naming nothing, it may answer 404. */
  generatedIdentifier: boolean;
}

let t: TestApp;
let doc: OpenAPIV3_1.Document;
/** Identifiers the seeded catalogue has, by operationId and input name (filled from list calls in beforeAll). */
const catalogue: Record<string, Record<string, string[]>> = {};

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.rest('/api/v1/openapi.json', { key: null })).body;
  const list = async (path: string) => (await t.rest(path)).body.data as Array<Record<string, any>>;
  const venues = (await list('/api/v1/venues?limit=100')).map((v) => v.slug);
  const vendors = await list('/api/v1/vendors?limit=100');
  // Inputs that name a catalogue entry. A path identifier is also generated from its schema (then a 404 is a fair
  // answer); an inquiry's target is always a listed one, and never an affiliate-only vendor (§4.11: it takes none).
  catalogue.getVenue = { slug: venues };
  // near_city names a city of the catalogue (any other is refused, with close names): taken from the venues listed.
  catalogue.searchVenues = { near_city: [...new Set((await list('/api/v1/venues?limit=100')).map((v) => v.city as string))] };
  catalogue.createVenueInquiry = { property_slug: venues };
  catalogue.getVendor = { slug: vendors.map((v) => v.slug) };
  catalogue.createVendorInquiry = { vendor_slug: vendors.filter((v) => !v.is_affiliate_only).map((v) => v.slug) };
  catalogue.getBlogPost = { slug: (await list('/api/v1/blog/posts?limit=100')).map((p) => p.slug) };
  catalogue.getInspirationPhoto = { id: (await list('/api/v1/inspiration?limit=100')).map((p) => p.id) };
  for (const [operationId, inputs] of Object.entries(catalogue)) {
    for (const [name, values] of Object.entries(inputs)) expect(values.length, `${operationId} ${name}: catalogue`).toBeGreaterThan(0);
  }
});
afterAll(() => t.close());

function operationsOf(document: OpenAPIV3_1.Document): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    (['get', 'post'] as const).flatMap((method) => {
      const op = (item as Record<string, OpenAPIV3_1.OperationObject>)[method];
      return op ? [{ method: method.toUpperCase() as 'GET' | 'POST', template, op }] : [];
    }),
  );
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
const validators = new Map<object, ValidateFunction>();
/** Whether `value` is valid by `schema`: ajv (JSON Schema 2020-12, formats checked) is the judge of schema-valid. */
function valid(schema: object, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  return validate(value);
}

/**
 * `x-dependencies` (IDL4OAS) as predicates on one request's inputs: `a <= b`, `a < b`, `Or(a, b, …)`,
 * `ZeroOrOne(a, b, …)`, `IF a THEN b`, `IF a=='v' THEN Or(b, c)`.
 */
function dependencyChecks(op: OpenAPIV3_1.OperationObject): Array<(inputs: Record<string, unknown>) => boolean> {
  const statements = ((op as Record<string, unknown>)['x-dependencies'] as string[] | undefined) ?? [];
  const given = (inputs: Record<string, unknown>, name: string) => inputs[name] !== undefined;
  const names = (list: string) => list.split(',').map((n) => n.trim());
  return statements.map((statement) => {
    const or = /^Or\((.+)\)$/.exec(statement);
    if (or) return (inputs) => names(or[1]).some((name) => given(inputs, name));
    const zeroOrOne = /^ZeroOrOne\((.+)\)$/.exec(statement);
    if (zeroOrOne) return (inputs) => names(zeroOrOne[1]).filter((name) => given(inputs, name)).length <= 1;
    const conditional = /^IF (\w+)(?:=='([^']*)')? THEN (?:Or\((.+)\)|(\w+))$/.exec(statement);
    if (conditional) {
      const [, key, equals, needsList, need] = conditional;
      const needs = needsList ? names(needsList) : [need];
      return (inputs) => !given(inputs, key) || (equals !== undefined && inputs[key] !== equals) || needs.some((name) => given(inputs, name));
    }
    const order = /^(\w+) (<=|<) (\w+)$/.exec(statement);
    if (!order) throw new Error(`x-dependencies: cannot read ${statement}`);
    const [, lower, relation, upper] = order;
    return (inputs) => {
      const [a, b] = [inputs[lower], inputs[upper]] as Array<number | string | undefined>;
      if (a === undefined || b === undefined) return true;
      return relation === '<' ? a < b : a <= b;
    };
  });
}

/**
 * A query parameter's values: from its schema, sometimes its documented example (a value the catalogue has, so some
 * searches find rows and have a next page); an optional one is left out half the time, so some searches are broad.
 */
function queryValue(parameter: OpenAPIV3_1.ParameterObject): fc.Arbitrary<unknown> {
  const generated = arbitraryOf(parameter.schema as Schema);
  const values = parameter.example === undefined ? generated : fc.oneof({ weight: 3, arbitrary: generated }, fc.constant(parameter.example));
  return parameter.required ? values : fc.oneof(fc.constant(undefined), values);
}

function caseArbitrary(operation: Operation): fc.Arbitrary<Case> {
  const { op } = operation;
  const listed = catalogue[op.operationId!] ?? {};
  const parameters = (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const path: Record<string, fc.Arbitrary<{ value: string; listed: boolean }>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of parameters) {
    const schema = parameter.schema as Schema;
    if (parameter.in === 'path') {
      const generated = arbitraryOf(schema).map((value) => ({ value: String(value), listed: false }));
      const known = listed[parameter.name];
      path[parameter.name] = known
        ? fc.oneof(
            fc.constantFrom(...known).map((value) => ({ value, listed: true })),
            generated,
          )
        : generated;
    } else if (parameter.in === 'query' && listed[parameter.name]) {
      // A query input naming a catalogue entry takes the catalogue's values (or is left out).
      query[parameter.name] = fc.oneof(fc.constant(undefined), fc.constantFrom(...listed[parameter.name]));
    } else if (parameter.in === 'query' && !SERVER_ISSUED.has(parameter.name)) {
      query[parameter.name] = queryValue(parameter);
    }
  }
  const required = parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name);
  const bodySchema = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content['application/json']?.schema as Schema | undefined;
  const body = bodySchema
    ? (arbitraryOf(bodySchema) as fc.Arbitrary<Record<string, unknown>>).chain((generated) =>
        fc
          .record(Object.fromEntries(Object.entries(listed).map(([name, values]) => [name, fc.constantFrom(...values)])))
          .map((known) => ({ ...generated, ...known })),
      )
    : fc.constant(undefined);
  const checks = dependencyChecks(op);
  return fc
    .record({ path: fc.record(path), query: fc.record(query, { requiredKeys: required }), body })
    .filter((c) => checks.every((check) => check({ ...c.query, ...c.body })))
    .filter(
      (c) =>
        parameters.every((p) => {
          const value = p.in === 'path' ? c.path[p.name]?.value : p.in === 'query' ? c.query[p.name] : undefined;
          return value === undefined || valid(p.schema as object, value);
        }) &&
        (!bodySchema || valid(bodySchema, c.body)),
    ) as fc.Arbitrary<Case>;
}

/** The query string as a client sends it: lists repeated (form, explode), numbers in plain decimals, text as is. */
function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  const text = (value: unknown) => (typeof value === 'number' ? plainDecimal(value) : String(value));
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, text(item));
  }
  const encoded = search.toString();
  return encoded ? `?${encoded}` : '';
}

async function send(operation: Operation, c: Case, extraQuery: Record<string, unknown> = {}): Promise<Sent> {
  const path = operation.template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(c.path[name].value));
  const url = `/api/v1${path}${queryString({ ...c.query, ...extraQuery })}`;
  const generatedIdentifier = Object.values(c.path).some((p) => !p.listed);
  if (operation.method === 'GET') {
    const response = await t.rest(url, operation.op.security?.length === 0 ? { key: null } : {});
    return { operation, url, response, generatedIdentifier };
  }
  const body = JSON.stringify(c.body);
  const response = await t.rest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
    body,
  });
  return { operation, url, body, response, generatedIdentifier };
}

/** What is wrong with an answer, or null: a status the request could not deserve, or a body the document does not describe. */
function problemOf(sent: Sent): string | null {
  const { operation, response } = sent;
  const success = operation.method === 'POST' ? 201 : 200;
  const expected = response.status === success || (response.status === 404 && sent.generatedIdentifier);
  if (!expected) return `answered ${response.status}`;
  if (response.status === 404) return null; // a generated path may name no route at all (dot segments): route_not_found
  const validate = responseValidator(doc, operation.method, operation.template, response.status);
  return validate(response.body) ? null : `answer does not match the document: ${ajv.errorsText(validate.errors)}`;
}

const describeSent = (sent: Sent, problem: string) =>
  [
    `${problem} (FUZZ_SEED=${SEED})`,
    `${sent.operation.method} ${sent.url}`,
    ...(sent.body ? [`body: ${sent.body}`] : []),
    `answer ${sent.response.status}, request ${sent.response.headers.get('x-request-id')}: ${sent.response.text.slice(0, 800)}`,
  ].join('\n');

describe('OpenAPI-driven fuzz: schema-valid requests are never refused', () => {
  it('sends ≥ 2,000 schema-valid requests across every operation; none answers 400 or 5xx, each answer as documented', async () => {
    const started = performance.now();
    const counts: Record<string, number> = {};
    const millis: Record<string, number> = {};
    let followed = 0;
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    const record = (sent: Sent) => {
      const id = sent.operation.op.operationId!;
      counts[id] = (counts[id] ?? 0) + 1;
      statuses[sent.response.status] = (statuses[sent.response.status] ?? 0) + 1;
      const problem = problemOf(sent);
      if (problem) problems.push(describeSent(sent, problem));
    };
    for (const [index, operation] of operationsOf(doc).entries()) {
      const runs = RUNS[operation.op.operationId!] ?? DEFAULT_RUNS;
      const cases = fc.sample(caseArbitrary(operation), { numRuns: runs, seed: SEED + index });
      const opStarted = performance.now();
      const follows = ((operation.op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).some((p) => SERVER_ISSUED.has(p.name));
      for (const c of cases) {
        const sent = await send(operation, c);
        record(sent);
        // The next page, as a client walks one: the same filters with the cursor the server issued.
        const next = sent.response.status === 200 && follows ? sent.response.body?.pagination?.next_cursor : null;
        if (next) {
          record(await send(operation, c, { cursor: next }));
          followed++;
        }
      }
      millis[operation.op.operationId!] = Math.round(performance.now() - opStarted);
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `[contract fuzz] seed ${SEED}: ${total} requests in ${seconds} s (${followed} next pages); statuses ${JSON.stringify(statuses)}; per operation ${JSON.stringify(counts)}; ms ${JSON.stringify(millis)}`,
    );
    expect(problems.length, problems[0]).toBe(0);
    expect(Object.keys(counts).sort()).toEqual(
      operationsOf(doc)
        .map((o) => o.op.operationId!)
        .sort(),
    );
    expect(total).toBeGreaterThanOrEqual(2000);
  }, 240_000);
});
