// GraphQL requests shaped to cost the server more than they are worth, through a real socket: each is a 400 naming
// its bound, never an internal error, and nothing is logged at error level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { GRAPHQL_BOUNDS } from '../../src/graphql/complexity.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { rawHeader, sendRaw, type RawAnswer } from '../support/raw-http.js';

let t: TestApp;
let base = '';
let close = async () => {};
beforeAll(async () => {
  t = await createTestApp();
  ({ base, close } = await listenApp(t.app));
});
afterAll(async () => {
  await close();
  await t.close();
});

const errorLines = () => t.logs.filter((line) => /"level":("error"|50)/.test(line));

/** The lane takes a plain JSON POST; `Content-Encoding: identity` sends the same request through the Fetch path. */
const PATHS = { lane: {}, 'Fetch path': { 'content-encoding': 'identity' } } as const;

function post(body: unknown, headers: Record<string, string> = {}, key: string | null = t.keys.pro): Promise<RawAnswer> {
  const h: Record<string, string> = { 'content-type': 'application/json', ...headers };
  if (key) h.authorization = `Bearer ${key}`;
  return sendRaw(base, '/graphql', { method: 'POST', headers: h, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** A 400 refusal of `bound` whose message states the rule, with nothing internal in it. */
function expectRefused(answer: RawAnswer, bound: keyof typeof GRAPHQL_BOUNDS, rule: string) {
  const text = answer.body.toString();
  const context = `request ${rawHeader(answer, 'x-request-id')}: ${text.slice(0, 500)}`;
  expect(answer.status, context).toBe(400);
  const body = JSON.parse(text);
  expect(body.data ?? null, context).toBeNull();
  expect(body.errors, context).toHaveLength(1);
  expect(body.errors[0].message, context).toContain(rule);
  expect(body.errors[0].message, context).toContain(`${bound} ${GRAPHQL_BOUNDS[bound]}`);
  expect(body.errors[0].extensions, context).toMatchObject({ code: 'query_too_complex', status: 400, bound, max: GRAPHQL_BOUNDS[bound] });
  expect(text, context).not.toContain('internal_error');
}

const deepList = (levels: number) => `${'['.repeat(levels)}"pool"${']'.repeat(levels)}`;

describe(`nesting: at most ${GRAPHQL_BOUNDS.maxNesting} levels, counted before the document or the variables are read further`, () => {
  const LIST_RULE = 'nests lists, input objects or selection sets 2501 levels deep';

  it.each(Object.entries(PATHS))('a list literal 2,500 deep is a 400 on the %s, whatever the Accept', async (_path, headers) => {
    const query = `{ venues(amenities: ${deepList(2500)}) { totalCount } }`;
    expectRefused(await post({ query }, headers), 'maxNesting', LIST_RULE);
    expectRefused(await post({ query }, { ...headers, accept: 'application/graphql-response+json' }), 'maxNesting', LIST_RULE);
    // Refused again from the document cache, which keeps the refusal for the same text.
    expectRefused(await post({ query }, headers), 'maxNesting', LIST_RULE);
    expect(errorLines()).toEqual([]);
  });

  it('on GET, and for object literals, selection sets and list types as for lists', async () => {
    const get = await sendRaw(base, `/graphql?query=${encodeURIComponent(`{ venues(amenities: ${deepList(100)}) { totalCount } }`)}`, {
      headers: { authorization: `Bearer ${t.keys.pro}` },
    });
    expectRefused(get, 'maxNesting', 'nests lists, input objects or selection sets 101 levels deep');
    const objects = `{ venues(filter: ${'{a: '.repeat(3000)}1${'}'.repeat(3000)}) { totalCount } }`;
    expectRefused(await post({ query: objects }), 'maxNesting', '3001 levels deep');
    const selections = `${'{ a '.repeat(3000)}${'}'.repeat(3000)}`;
    expectRefused(await post({ query: selections }), 'maxNesting', '3000 levels deep');
    const listType = `query ($a: ${'['.repeat(3000)}String${']'.repeat(3000)}) { __typename }`;
    expectRefused(await post({ query: listType }), 'maxNesting', '3000 levels deep');
    expect(errorLines()).toEqual([]);
  });

  it('a deep document with an introspection field, without a key, is not answered keyless and does not crash', async () => {
    const answer = await post({ query: `{ __typename a: __type(name: ${deepList(2500)}) { name } }` }, {}, null);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body.toString()).errors[0].extensions.code).toBe('missing_api_key');
    expect(errorLines()).toEqual([]);
  });

  it.each(Object.entries(PATHS))('variables 5,000 deep are a 400 on the %s, used or not', async (_path, headers) => {
    const used = `{"query":"query ($a: [String!]) { venues(amenities: $a) { totalCount } }","variables":{"a":${deepList(5000)}}}`;
    expectRefused(await post(used, headers), 'maxNesting', 'the variables nest lists or objects 5001 levels deep');
    const unused = `{"query":"{ venues(first: 1) { totalCount } }","variables":{"a":${'{"b":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
    expectRefused(await post(unused, headers), 'maxNesting', 'the variables nest lists or objects 5001 levels deep');
    expect(errorLines()).toEqual([]);
  });

  it('variables on GET too; a document and variables within the bound are answered', async () => {
    const query = encodeURIComponent('query ($a: [String!]) { venues(amenities: $a) { totalCount } }');
    const key = { authorization: `Bearer ${t.keys.pro}` };
    const deep = await sendRaw(base, `/graphql?query=${query}&variables=${encodeURIComponent(`{"a":${deepList(100)}}`)}`, { headers: key });
    expectRefused(deep, 'maxNesting', 'the variables nest lists or objects 101 levels deep');
    const fine = await sendRaw(base, `/graphql?query=${query}&variables=${encodeURIComponent('{"a":["pool"]}')}`, { headers: key });
    expect(fine.status).toBe(200);
    expect(JSON.parse(fine.body.toString()).data.venues.totalCount).toBeGreaterThanOrEqual(0);
  });
});

/** GraphiQL's introspection query: what it sends before the analyst has pasted a key. */
const INTROSPECTION = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, oneOf: true });
/** `__schema { ... }` of that query, for aliasing. */
const SCHEMA_SELECTION = INTROSPECTION.slice(INTROSPECTION.indexOf('__schema'), INTROSPECTION.indexOf('fragment FullType'))
  .trim()
  .replace(/\}\s*$/, '');
const FRAGMENTS = INTROSPECTION.slice(INTROSPECTION.indexOf('fragment FullType'));
/** GraphiQL's Accept. */
const GRAPHIQL = { accept: 'application/json, multipart/mixed' };

describe(`__schema: at most ${GRAPHQL_BOUNDS.maxSchemaSelections} selection a document, keyless or not`, () => {
  it('15 aliased __schema selections without a key are a 400 naming the bound, on both paths and both media types', async () => {
    const query = `query {\n${Array.from({ length: 15 }, (_, i) => `s${i}: ${SCHEMA_SELECTION}`).join('\n')}\n}\n${FRAGMENTS}`;
    for (const headers of Object.values(PATHS)) {
      for (const accept of [GRAPHIQL, { accept: 'application/graphql-response+json' }]) {
        const answer = await post({ query }, { ...headers, ...accept }, null);
        expectRefused(answer, 'maxSchemaSelections', 'the document selects __schema 15 times');
        expect(answer.body.length).toBeLessThan(2000);
      }
    }
  });

  it('a repeat, a fragment or a key changes nothing: every __schema counts', async () => {
    const twice = '{ __schema { queryType { name } } __schema { queryType { name } } }';
    expectRefused(await post({ query: twice }, {}, null), 'maxSchemaSelections', 'selects __schema 2 times');
    expectRefused(await post({ query: twice }), 'maxSchemaSelections', 'selects __schema 2 times');
    // A fragment at the root is not introspection only (keyless requests are told 401): with a key.
    const inFragment = '{ ...S a: __schema { queryType { name } } } fragment S on Query { __schema { types { name } } }';
    expectRefused(await post({ query: inFragment }), 'maxSchemaSelections', 'selects __schema 2 times');
  });

  it("GraphiQL's one __schema is answered without a key, on both paths", async () => {
    for (const headers of Object.values(PATHS)) {
      const answer = await post({ query: INTROSPECTION, operationName: 'IntrospectionQuery' }, { ...headers, ...GRAPHIQL }, null);
      expect(answer.status, answer.body.toString().slice(0, 300)).toBe(200);
      const body = JSON.parse(answer.body.toString());
      expect(body.errors).toBeUndefined();
      expect(body.data.__schema.queryType.name).toBe('Query');
      expect(body.data.__schema.types.length).toBeGreaterThan(50);
    }
    // __type, any number of times within the alias bound, is answered too: each is one type.
    const types = `{ ${['Venue', 'Vendor', 'Query'].map((name, i) => `t${i}: __type(name: "${name}") { name fields { name } }`).join(' ')} }`;
    const answer = await post({ query: types }, {}, null);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).data.t0.name).toBe('Venue');
    expect(errorLines()).toEqual([]);
  });
});
