// The suite that keeps hardening true: for every REST route and every GraphQL root field, generated inputs (valid,
// boundary and hostile) never get a 5xx, always get the §7 envelope (or GraphQL errors) with a type that matches the
// status, leak nothing, and the same mistake gets the same code on both surfaces.
// Runs PROPERTY_RUNS inputs per route and field: 25 by default (npm test), 1,000 in .ci/run's PostgreSQL run.
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/app.js';
import { targets, validBody, type Targets } from '../inquiries/support.js';
import { getSchema } from '../../src/graphql/schema.js';
import { compileRoute, type CompiledRoute } from '../../src/rest/adapter.js';
import { restRoutes } from '../../src/rest/routes.js';
import { coerceParam, variablesFromQuery, withEnumNames, type ParamSpec } from '../../src/rest/params.js';
import { ERROR_CATALOGUE, statusOf, type ErrorCode } from '../../src/errors/catalogue.js';
import { camelCase } from '../../src/rest/route.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const LEAK = /at .+\.(ts|js):\d+|node:internal|\/work\/|SELECT |INSERT |Prisma|wv_live_|ECONN|TypeError|ReferenceError/;

let t: TestApp;
let tg: Targets;
let validSlugs: Record<string, string>;
const schema = getSchema();
const routes: CompiledRoute[] = restRoutes.map((r) => compileRoute(r, schema));

beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
  const blog = await t.db.prisma.blogPost.findFirst({ where: { publishedAt: { not: null } }, select: { slug: true } });
  const photo = await t.db.prisma.inspirationPhoto.findFirst({ select: { id: true } });
  validSlugs = {
    '/venues/{slug}': tg.venue,
    '/vendors/{slug}': tg.vendor,
    '/blog/posts/{slug}': blog?.slug ?? 'x',
    '/inspiration/{id}': photo?.id ?? 'x',
  };
});
afterAll(() => t.close());

const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  'a'.repeat(5000),
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%',
  '%00',
  '😀',
  'café',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  '[]',
  '{}',
  'null',
  'true',
];
const NUMBERS = [
  '0',
  '1',
  '2',
  '-1',
  '5',
  '7',
  '8',
  '10',
  '11',
  '19',
  '20',
  '49',
  '50',
  '51',
  '99',
  '100',
  '101',
  '350',
  '351',
  '500',
  '501',
  '2000',
  '2001',
  '10000',
  '10001',
  '2147483648',
  '9007199254740993',
  '1.5',
  '-0',
  '1e3',
  'NaN',
  '+7',
  ' 3 ',
];

/** A REST parameter value: one of its documented values, a boundary number, or something hostile. */
function paramValue(route: CompiledRoute, spec: ParamSpec): fc.Arbitrary<string> {
  const docs = route.route.paramDocs?.[spec.name];
  const known = [...(docs?.enum ?? []), ...(docs?.example !== undefined ? [String(docs.example)] : [])];
  const scalar =
    spec.scalar === 'Int' || spec.scalar === 'Float'
      ? fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -20, max: 12_000 }).map(String))
      : spec.scalar === 'Boolean'
        ? fc.constantFrom('true', 'false', 'TRUE', '1', '')
        : fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.string({ unit: 'binary', maxLength: 8 }),
            fc.constantFrom('california', 'texas', 'ca', 'barn', 'pool'),
          );
  const single = fc.oneof(
    { weight: 3, arbitrary: scalar },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    ...(known.length ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
  );
  return spec.list ? fc.array(single, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(',')) : single;
}

/** A query string for a route: a subset of its parameters, sometimes repeated, unknown or badly %-encoded. */
function queryFor(route: CompiledRoute): fc.Arbitrary<string> {
  const specs = route.params.filter((p) => p.in === 'query');
  const pairs = specs.length
    ? fc.array(
        fc.constantFrom(...specs).chain((spec) => paramValue(route, spec).map((value) => [spec.name, value] as [string, string])),
        { maxLength: 5 },
      )
    : fc.constant([] as [string, string][]);
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__=1', 'constructor=x', 'unknown_param=1', '%FF%FE=1', 'q=%E0%A4%A', '=', '&&', 'a[b]=1') },
  );
  return fc.tuple(pairs, extra).map(([list, tail]) => [new URLSearchParams(list).toString(), tail].filter(Boolean).join('&'));
}

/** %-encodes a path segment; a lone surrogate (which has no UTF-8) goes as the bytes a careless client would send. */
const encodePath = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

function pathFor(route: CompiledRoute): fc.Arbitrary<string> {
  if (!route.pathParams.length) return fc.constant(route.route.path);
  const valid = validSlugs[route.route.path];
  const value = fc.oneof(
    fc.constant(encodeURIComponent(valid)),
    fc.constant(valid),
    fc.constantFrom(...HOSTILE_TEXT.filter(Boolean)).map(encodePath),
    fc.constantFrom('%', '%ZZ', '%C0%80', 'a%2F..%2Fb', '00000000-0000-0000-0000-000000000000', 'not-a-uuid'),
    fc.string({ minLength: 1, maxLength: 20 }).map(encodePath),
  );
  return value.map((v) => route.route.path.replace(/\{\w+\}/, v));
}

/** An inquiry body: valid, with fields swapped for hostile JSON values, extra keys (prototype names), or not JSON. */
function inquiryBody(kind: 'venue' | 'vendor'): fc.Arbitrary<string> {
  const base = validBody(kind, tg);
  const hostile = fc.oneof(
    fc.constantFrom(null, [], {}, -1, 0, 1.5, 1e21, true, 'x'.repeat(6000), '\u0000', '\uD800', '0000-01-01', '2027-02-30', 'not-an-email', '  '),
    fc.string({ maxLength: 10 }),
    fc.integer({ min: -5, max: 20_000 }),
  );
  const mutated = fc
    .tuple(
      fc.subarray(Object.keys(base)),
      fc.array(hostile, { minLength: 8, maxLength: 8 }),
      fc.subarray(['__proto__', 'constructor', 'status', 'id', 'created_at']),
    )
    .map(([keys, values, extras]) => {
      const body: Record<string, unknown> = { ...base };
      keys.forEach((k, i) => {
        body[k] = values[i % values.length];
      });
      let text = JSON.stringify(body);
      for (const extra of extras) text = text.replace(/}$/, `,"${extra}":{"polluted":true}}`);
      return text;
    });
  return fc.oneof({ weight: 8, arbitrary: mutated }, { weight: 1, arbitrary: fc.constantFrom('{', '[]', 'null', '"text"', '{"a":1}{', '\u0000') });
}

/** Asserts the REST answer: no 5xx, the envelope with a catalogue code whose status and type match, no leak. */
function expectEnvelope(res: TestResponse, what: string) {
  const context = `${what} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.text, context).not.toMatch(LEAK);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/json/);
  if (res.status >= 400) {
    const error = res.body?.error;
    expect(error, context).toBeTruthy();
    const code = error.code as ErrorCode;
    expect(ERROR_CATALOGUE[code], context).toBeTruthy();
    expect(statusOf(code), context).toBe(res.status);
    expect(error.type, context).toBe(ERROR_CATALOGUE[code].type);
    expect(error.request_id, context).toBe(res.headers.get('x-request-id'));
  } else {
    expect(res.body?.request_id, context).toBe(res.headers.get('x-request-id'));
  }
}

/** Asserts a GraphQL answer: no 5xx, every error with a code (a catalogue code's status matching), no leak. */
function expectGraphQLAnswer(res: TestResponse, what: string) {
  const context = `${what} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.text, context).not.toMatch(LEAK);
  for (const error of res.body?.errors ?? []) {
    const code = error.extensions?.code;
    expect(typeof code, context).toBe('string');
    // A field error inside HTTP 200 counts too: a database_error or internal_error there is a 5xx all the same.
    if (typeof error.extensions?.status === 'number') expect(error.extensions.status, context).toBeLessThan(500);
    // Every error is the catalogue's, graphql-js's and Yoga's own refusals (parse, validation, coercion) included.
    expect(ERROR_CATALOGUE[code as ErrorCode], context).toBeTruthy();
    expect(error.extensions.status, context).toBe(statusOf(code));
    expect(error.extensions.type, context).toBe(ERROR_CATALOGUE[code as ErrorCode].type);
    expect(error.extensions.requestId, context).toBe(res.headers.get('x-request-id'));
  }
}

/** The variables REST would run with, or null when the adapter itself refuses the parameters. */
function restVariables(route: CompiledRoute, search: URLSearchParams, pathValue?: string): Record<string, unknown> | null {
  try {
    const variables = variablesFromQuery(search, route.queryParams);
    for (const spec of route.params.filter((p) => p.in === 'path')) variables[spec.variable] = coerceParam(spec, pathValue ?? '');
    // As the adapter does: the route's check on the wire values, then closed-set parameters become enum names.
    const args = [...route.variableOfArgument].filter(([, variable]) => variables[variable] !== undefined);
    route.route.check?.(Object.fromEntries(args.map(([argument, variable]) => [argument, variables[variable]])));
    return withEnumNames(variables, route.params);
  } catch {
    return null;
  }
}

describe(`every REST route, ${RUNS} generated inputs each`, () => {
  for (const route of routes.filter((r) => r.route.method === 'GET')) {
    it(`GET ${route.route.path}: never 5xx, always the envelope, the same code on GraphQL`, async () => {
      const document = route.route.document;
      await fc.assert(
        fc.asyncProperty(pathFor(route), queryFor(route), async (path, query) => {
          const url = `/api/v1${path}${query ? `?${query}` : ''}`;
          const rest = await t.rest(url);
          expectEnvelope(rest, `GET ${url}`);
          // The same question on GraphQL, when the adapter could build its variables: same outcome, same code.
          // A target URL parsing rewrites (dot segments: /venues/. is /venues/) never named the slug at all.
          if (new URL(`http://x/api/v1${path}`).pathname !== `/api/v1${path}`) return;
          let search: URLSearchParams;
          let pathValue: string | undefined;
          try {
            search = new URLSearchParams(query);
            pathValue = route.pathParams.length ? decodeURIComponent(path.slice(route.route.path.indexOf('{'))) : undefined;
          } catch {
            return;
          }
          const variables = restVariables(route, search, pathValue);
          if (!variables) return;
          const gql = await t.graphql(document, variables);
          expectGraphQLAnswer(gql, `GraphQL ${route.route.operationId} ${JSON.stringify(variables).slice(0, 200)}`);
          const gqlCode = gql.body?.errors?.[0]?.extensions?.code;
          if (rest.status >= 400) {
            expect(gqlCode, `${url}: REST ${rest.body.error.code}, GraphQL ${gql.text.slice(0, 300)}`).toBe(rest.body.error.code);
            // Params are named per surface: the GraphQL argument (first), or the REST parameter feeding it (limit).
            const gqlParam = gql.body.errors[0].extensions.param;
            if (rest.body.error.param && gqlParam)
              expect(camelCase(route.paramOfArgument.get(gqlParam) ?? gqlParam)).toBe(camelCase(rest.body.error.param));
          } else {
            expect(gql.body.errors, `${url}: REST ${rest.status}, GraphQL ${gql.text.slice(0, 300)}`).toBeUndefined();
          }
        }),
        { numRuns: RUNS },
      );
    });
  }

  for (const kind of ['venue', 'vendor'] as const) {
    it(`POST /inquiries/${kind}: never 5xx, always the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(inquiryBody(kind), fc.option(fc.string({ maxLength: 300 }), { nil: undefined }), async (body, idem) => {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (idem !== undefined && /^[\x21-\x7e]*$/.test(idem)) headers['x-idempotency-key'] = idem;
          const res = await t.rest(`/api/v1/inquiries/${kind}`, { method: 'POST', headers, body });
          expectEnvelope(res, `POST ${kind} ${body.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

/** A value for a GraphQL argument type: valid-looking, boundary or hostile. */
function argumentValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const nullable = getNullableType(type);
  const maybeNull = <T>(a: fc.Arbitrary<T>) =>
    isNonNullType(type) ? a : fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(nullable)) return maybeNull(fc.array(argumentValue(nullable.ofType, depth + 1), { maxLength: 4 }));
  if (isEnumType(nullable)) return maybeNull(fc.oneof(fc.constantFrom(...nullable.getValues().map((v) => v.name)), fc.constant('NOT_A_VALUE')));
  if (isInputObjectType(nullable)) {
    if (depth > 2) return fc.constant(null);
    const fields = Object.values(nullable.getFields());
    return maybeNull(fc.record(Object.fromEntries(fields.map((f) => [f.name, argumentValue(f.type, depth + 1)])), { requiredKeys: [] }));
  }
  const name = getNamedType(nullable).name;
  const scalar =
    name === 'Int'
      ? fc.oneof(fc.integer({ min: -20, max: 12_000 }), fc.constantFrom(0, 1, 100, 101, 2 ** 31 - 1, -(2 ** 31)))
      : name === 'Float'
        ? fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(0, 1.5, 1e15))
        : name === 'Boolean'
          ? fc.boolean()
          : name === 'JSON'
            ? fc.oneof(fc.boolean(), fc.constantFrom('yes', 1, null, {}))
            : fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...HOSTILE_TEXT), fc.constantFrom('california', tg?.venue ?? 'x', 'barn'));
  return maybeNull(scalar);
}

function rootFieldDocument(kind: 'query' | 'mutation', name: string, args: readonly GraphQLArgument[], returnsLeaf: boolean): string {
  const definitions = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  return `${kind}${definitions ? `(${definitions})` : ''} { ${name}${call}${returnsLeaf ? '' : ' { __typename }'} }`;
}

describe(`every GraphQL root field, ${RUNS} generated argument sets each`, () => {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const;
  for (const [kind, type] of roots) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      it(`${kind} ${field.name}: never 5xx, every error coded, nothing leaked`, async () => {
        const document = rootFieldDocument(kind, field.name, field.args, isLeafType(getNamedType(field.type)));
        const args = fc.record(Object.fromEntries(field.args.map((a) => [a.name, argumentValue(a.type)])), { requiredKeys: [] });
        await fc.assert(
          fc.asyncProperty(args, async (variables) => {
            const res = await t.graphql(document, variables as Record<string, unknown>);
            expectGraphQLAnswer(res, `${field.name} ${JSON.stringify(variables).slice(0, 300)}`);
          }),
          { numRuns: RUNS },
        );
      });
    }
  }
});
