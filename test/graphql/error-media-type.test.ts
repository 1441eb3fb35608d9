// Every GraphQL answer follows the Accept header as Yoga's own answers do, the refusals the HTTP layer writes before
// or around Yoga (401, 413, 415, 429) included: a client that accepts only application/graphql-response+json (Apollo
// Client 4) reads their code instead of failing on the media type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlMediaType } from '../../src/http/responses.js';
import { UNREACHABLE_POLICY } from '../../src/limits/limits.policy.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp } from '../support/processes.js';
import { rawHeader, sendRaw, type RawAnswer } from '../support/raw-http.js';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const typeOf = (mediaType: string) => `${mediaType}; charset=utf-8`;

describe('graphqlMediaType: the media type Yoga answers an Accept with', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['application/json', 'application/json'],
    [GRAPHQL_RESPONSE, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}; charset=utf-8`, GRAPHQL_RESPONSE],
    [` Application/GraphQL-Response+JSON `, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}, application/json`, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}, application/json;q=0.9`, GRAPHQL_RESPONSE],
    [`application/json, ${GRAPHQL_RESPONSE}`, 'application/json'],
    [`text/html, ${GRAPHQL_RESPONSE}, */*`, GRAPHQL_RESPONSE],
    [`${GRAPHQL_RESPONSE}; charset=latin1, application/json`, 'application/json'],
    ['application/json, multipart/mixed', 'application/json'],
    // Neither JSON type: answered application/json rather than not at all.
    ['text/html', 'application/json'],
    [`${GRAPHQL_RESPONSE}; charset=latin1`, 'application/json'],
  ])('%j → %s', (accept, mediaType) => {
    expect(graphqlMediaType(accept)).toBe(mediaType);
  });
});

let t: TestApp;
let base = '';
let close = async () => {};
beforeAll(async () => {
  // One request a minute on the free key, for a 429; every other limit out of reach.
  t = await createTestApp({
    limits: { ...UNREACHABLE_POLICY, requests: { ...UNREACHABLE_POLICY.requests, free: { perMinute: 1, perDay: 1_000 } } },
  });
  ({ base, close } = await listenApp(t.app));
});
afterAll(async () => {
  await close();
  await t.close();
});

const SEARCH = '{ venues(first: 1) { totalCount } }';
/** A plain JSON POST, and the same with `Content-Encoding: identity` (accepted: nothing to decode). */
const PATHS = { 'plain POST': {}, 'POST with Content-Encoding: identity': { 'content-encoding': 'identity' } } as const;

function post(headers: Record<string, string>, body: string = JSON.stringify({ query: SEARCH })): Promise<RawAnswer> {
  return sendRaw(base, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

/** A refusal with `code` in GraphQL's response shape and the content type `mediaType`. */
function expectRefusal(answer: RawAnswer, status: number, code: string, mediaType: string) {
  const text = answer.body.toString();
  const context = `request ${rawHeader(answer, 'x-request-id')}: ${text.slice(0, 300)}`;
  expect(answer.status, context).toBe(status);
  expect(rawHeader(answer, 'content-type'), context).toBe(typeOf(mediaType));
  const body = JSON.parse(text);
  expect(body.errors[0].extensions.code, context).toBe(code);
  expect(body.errors[0].extensions.requestId, context).toBe(rawHeader(answer, 'x-request-id'));
  expect(typeof body.errors[0].message).toBe('string');
}

describe('the HTTP layer’s refusals on /graphql follow the Accept header', () => {
  it.each(Object.entries(PATHS))('401 missing_api_key to a %s: the media type the client accepts', async (_path, headers) => {
    expectRefusal(await post({ ...headers, accept: GRAPHQL_RESPONSE }), 401, 'missing_api_key', GRAPHQL_RESPONSE);
    expectRefusal(await post({ ...headers, accept: 'application/json' }), 401, 'missing_api_key', 'application/json');
    expectRefusal(await post(headers), 401, 'missing_api_key', 'application/json');
  });

  it('401 on GET as on POST', async () => {
    const get = (accept: string) => sendRaw(base, `/graphql?query=${encodeURIComponent(SEARCH)}`, { headers: { accept } });
    expectRefusal(await get(GRAPHQL_RESPONSE), 401, 'missing_api_key', GRAPHQL_RESPONSE);
    expectRefusal(await get('application/json'), 401, 'missing_api_key', 'application/json');
  });

  it.each([
    undefined,
    '*/*',
    'application/json',
    GRAPHQL_RESPONSE,
    `${GRAPHQL_RESPONSE}, application/json`,
    `application/json, ${GRAPHQL_RESPONSE}`,
    `${GRAPHQL_RESPONSE};q=0.5, application/json`,
    'application/*',
  ])('Accept %j: a 401 has the media type Yoga gives the same request with a key', async (accept) => {
    const headers: Record<string, string> = accept === undefined ? {} : { accept };
    const answered = await post({ ...headers, authorization: `Bearer ${t.keys.pro}` });
    expect(answered.status).toBe(200);
    expect(rawHeader(answered, 'content-type')).toBe(typeOf(graphqlMediaType(accept)));
    expectRefusal(await post(headers), 401, 'missing_api_key', graphqlMediaType(accept));
  });

  it('413, 415 and 429 as the 401', async () => {
    const accept = { accept: GRAPHQL_RESPONSE };
    const large = JSON.stringify({ query: `{ __typename }${' '.repeat(70 * 1024)}` });
    expectRefusal(await post(accept, large), 413, 'payload_too_large', GRAPHQL_RESPONSE);
    expectRefusal(await post({ ...accept, 'content-encoding': 'gzip' }), 415, 'unsupported_media_type', GRAPHQL_RESPONSE);
    // A media type Yoga cannot read: Yoga's empty 415, given the catalogue's body in the accepted type.
    const text = await post({ ...accept, 'content-type': 'text/plain', authorization: `Bearer ${t.keys.pro}` });
    expectRefusal(text, 415, 'unsupported_media_type', GRAPHQL_RESPONSE);
    const free = { ...accept, authorization: `Bearer ${t.keys.free}` };
    expect((await post(free)).status).toBe(200);
    const limited = await post(free);
    expectRefusal(limited, 429, 'rate_limit_exceeded', GRAPHQL_RESPONSE);
    expect(rawHeader(limited, 'retry-after')).toBeDefined();
  });

  it('an Accept Yoga cannot meet is a 406 in application/json, the default it falls back to', async () => {
    const answer = await post({ accept: 'text/html', authorization: `Bearer ${t.keys.pro}` });
    expectRefusal(answer, 406, 'not_acceptable', 'application/json');
  });
});
