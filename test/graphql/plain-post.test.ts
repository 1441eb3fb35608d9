import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainPostOf } from '../../src/graphql/plain-post.js';
import { createTestApp, BASE_URL, type TestApp } from '../support/app.js';

const utf8 = new TextEncoder();

function post(body: string, headers: Record<string, string>): Request {
  return new Request(`${BASE_URL}/graphql`, { method: 'POST', headers, body });
}

const plain = (body: unknown, headers: Record<string, string> = {}) =>
  plainPostOf(post('', { 'content-type': 'application/json', ...headers }), utf8.encode(typeof body === 'string' ? body : JSON.stringify(body)));

describe('plainPostOf: which GraphQL POSTs skip the ends of Yoga’s pipeline', () => {
  const query = '{ venues(first: 1) { totalCount } }';

  it('takes a JSON body of Yoga’s four parameters, each of a type Yoga accepts, and keeps them as sent', () => {
    const body = { query, variables: { first: 2 }, operationName: null, extensions: {} };
    expect(plain(body)).toEqual({ params: body, mediaType: 'application/json' });
    expect(plain({ query })?.params).toEqual({ query });
    expect(plain({ query, variables: null, operationName: 'Named' })?.params).toEqual({ query, variables: null, operationName: 'Named' });
    expect(plain({ query }, { 'content-type': 'application/json; charset=utf-8' })).not.toBeNull();
    // What Yoga's own checks then refuse (an empty document) is still Yoga's to refuse, in getResultForParams.
    expect(plain({ query: '' })).not.toBeNull();
  });

  it('answers in the media type Yoga negotiates for a single Accept value', () => {
    const answered = (accept: string | undefined) => plain({ query }, accept === undefined ? {} : { accept })?.mediaType ?? null;
    expect(answered(undefined)).toBe('application/json');
    expect(answered('')).toBe('application/json');
    expect(answered('*/*')).toBe('application/json');
    expect(answered('application/json')).toBe('application/json');
    expect(answered(' Application/JSON ; charset=UTF-8')).toBe('application/json');
    expect(answered('application/graphql-response+json')).toBe('application/graphql-response+json');
    expect(answered('application/graphql-response+json;charset=utf-8')).toBe('application/graphql-response+json');
    // Lists, qualities, other charsets and other types are Yoga's negotiation.
    expect(answered('application/graphql-response+json, application/json')).toBeNull();
    expect(answered('application/json;q=0.9')).toBeNull();
    expect(answered('application/json;charset=iso-8859-1')).toBeNull();
    expect(answered('text/event-stream')).toBeNull();
    expect(answered('text/html')).toBeNull();
  });

  it('leaves to Yoga every body and media type its parser reads otherwise or refuses', () => {
    expect(plain({ query }, { 'content-type': 'application/graphql' })).toBeNull();
    expect(plain({ query }, { 'content-type': 'Application/json' })).toBeNull(); // Yoga compares as sent: 415 there
    expect(plain({ query }, { 'content-type': 'text/plain' })).toBeNull();
    expect(plainPostOf(new Request(`${BASE_URL}/graphql?query=x`), utf8.encode(JSON.stringify({ query })))).toBeNull();
    expect(plain([{ query }])).toBeNull(); // a batch
    expect(plain('{"query": ')).toBeNull();
    expect(plain('null')).toBeNull();
    expect(plain('"{ venues { totalCount } }"')).toBeNull();
    expect(plain({})).toBeNull();
    expect(plain({ query: 1 })).toBeNull();
    expect(plain({ query, variables: [] })).toBeNull();
    expect(plain({ query, variables: '{}' })).toBeNull();
    expect(plain({ query, operationName: 1 })).toBeNull();
    expect(plain({ query, extensions: [] })).toBeNull();
    // Yoga lets an unknown parameter through when it is null: Yoga's path answers it, the same answer (below).
    expect(plain({ query, other: null })).toBeNull();
    expect(plain('{"query": "{ venues { totalCount } }", "__proto__": {}}')).toBeNull();
  });
});

describe('a plain POST is answered as Yoga answers it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Status, headers and body, without what differs from one request to the next (its id, the limit's count). */
  async function answer(params: Record<string, unknown>, accept: string | undefined) {
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${t.keys.partner}` };
    if (accept !== undefined) headers.accept = accept;
    const body = JSON.stringify(params);
    const took = plainPostOf(post(body, headers), utf8.encode(body)) !== null;
    const response = await t.app.fetch(post(body, headers));
    const kept = [...response.headers].filter(([name]) => !/^(x-request-id|ratelimit|x-ratelimit)/i.test(name));
    const text = (await response.text()).replace(/req_[A-Za-z0-9_-]+/g, 'req_*');
    return { took, status: response.status, headers: kept.sort(), text };
  }

  const documents: Array<[string, Record<string, unknown>]> = [
    [
      'a search with variables',
      { query: 'query Search($first: Int) { venues(first: $first) { totalCount nodes { slug name } } }', variables: { first: 3 } },
    ],
    [
      'the operation operationName names',
      { query: 'query A { venues(first: 1) { totalCount } } query B { vendors(first: 2) { nodes { slug } } }', operationName: 'B' },
    ],
    [
      'several operations and no operationName',
      { query: 'query A { venues(first: 1) { totalCount } } query B { vendors(first: 1) { totalCount } }' },
    ],
    ['a field the schema lacks (validation)', { query: '{ venues(first: 1) { nope } }' }],
    ['a syntax error', { query: '{ venues(first: ' }],
    ['an empty document', { query: '' }],
    ['a variable of the wrong type', { query: 'query Search($first: Int) { venues(first: $first) { totalCount } }', variables: { first: 'three' } }],
    [
      'a venue that does not exist (an error with data)',
      { query: '{ venue(slug: "nowhere/none/no-such-venue") { slug } venues(first: 1) { totalCount } }' },
    ],
    ['an argument out of bounds', { query: '{ venues(first: 1000) { totalCount } }' }],
    ['a subscription', { query: 'subscription { venues { totalCount } }' }],
  ];

  for (const [what, params] of documents) {
    for (const accept of [undefined, '*/*', 'application/json', 'application/graphql-response+json']) {
      it(`${what}, Accept ${accept ?? '(none)'}`, async () => {
        const plain = await answer(params, accept);
        // The same parameters with a null extra key (which Yoga ignores) take Yoga's whole pipeline.
        const yoga = await answer({ ...params, unused: null }, accept);
        expect(plain.took).toBe(true);
        expect(yoga.took).toBe(false);
        expect({ status: plain.status, headers: plain.headers, text: plain.text }).toEqual({
          status: yoga.status,
          headers: yoga.headers,
          text: yoga.text,
        });
      });
    }
  }

  it('answers a search’s data as a plain POST with the content type Yoga gives it', async () => {
    const plain = await answer(documents[0][1], 'application/graphql-response+json');
    expect(plain.status).toBe(200);
    expect(Object.fromEntries(plain.headers)['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect(JSON.parse(plain.text).data.venues.nodes).toHaveLength(3);
  });
});
