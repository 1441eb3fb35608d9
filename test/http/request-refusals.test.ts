// HTTP-level refusals answered with the catalogue's codes (issue 11, item 8), and no lead contents in any log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { postGraphql, postRest, targets, validBody, type Targets } from '../inquiries/support.js';
import { createDispatcher } from '../../src/notify/dispatcher.js';
import { createLogger } from '../../src/logging/logger.js';
import { Writable } from 'node:stream';
import { ERROR_CATALOGUE, statusOf, type ErrorCode } from '../../src/errors/catalogue.js';

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
});
afterAll(() => t.close());

describe('GraphQL over GET and odd bodies', () => {
  it('variables={bad is 400 invalid_parameters naming variables, not an unexpected error', async () => {
    const res = await t.rest(`/graphql?query=${encodeURIComponent('{ vendorCategories { slug } }')}&variables={bad`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expectGraphQLError(res, 'invalid_parameters', 'variables');
    expect(t.logs.join('')).not.toContain('unexpected error');
  });

  it('each media type Yoga reads is answered from the body the HTTP layer read: JSON, application/graphql, a form, multipart', async () => {
    const query = '{ vendorCategories { slug } }';
    const multipart = new FormData();
    multipart.set('operations', JSON.stringify({ query }));
    multipart.set('map', '{}');
    const posts: RequestInit[] = [
      { headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ query }) },
      { headers: { 'content-type': 'application/graphql' }, body: query },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ query }).toString() },
      { body: multipart },
    ];
    for (const post of posts) {
      const res = await t.rest('/graphql', { method: 'POST', ...post });
      expect(res.status, String(post.body)).toBe(200);
      expect(res.body.data.vendorCategories.length).toBeGreaterThan(0);
    }
    // Yoga's JSON parser still decides what a JSON body must be.
    const nothing = await t.rest('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'null' });
    expect(nothing.status).toBe(400);
    expectGraphQLError(nothing, 'invalid_graphql_request');
    expect(nothing.body.errors[0].message).toBe('POST body is expected to be object but received null');
  });

  it('a media type Yoga cannot read is 415 with a GraphQL error body, not an empty one', async () => {
    const res = await t.rest('/graphql', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{ vendorCategories { slug } }' });
    expect(res.status).toBe(415);
    expectGraphQLError(res, 'unsupported_media_type');
    expect(res.body.errors[0].extensions.type).toBe('request_error');
  });

  it('a compressed GraphQL body is 415 (bodies are never decompressed)', async () => {
    const res = await t.rest('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"query":"{ vendorCategories { slug } }"}',
    });
    expect(res.status).toBe(415);
    expectGraphQLError(res, 'unsupported_media_type');
  });
});

describe("Yoga's and graphql-js's own refusals carry the catalogue's code, type, status, requestId and docUrl", () => {
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const cases: { what: string; init: RequestInit & { path?: string }; status: number; code: string; param?: string }[] = [
    { what: 'PUT', init: { method: 'PUT', headers: json, body: '{"query":"{ __typename }"}' }, status: 405, code: 'method_not_allowed' },
    {
      what: 'a mutation over GET',
      init: { path: `/graphql?query=${encodeURIComponent('mutation { __typename }')}`, headers: { accept: 'application/json' } },
      status: 405,
      code: 'method_not_allowed',
    },
    { what: 'a batch', init: { method: 'POST', headers: json, body: '[{"query":"{ __typename }"}]' }, status: 400, code: 'invalid_graphql_request' },
    { what: 'a query that is a number', init: { method: 'POST', headers: json, body: '{"query":5}' }, status: 400, code: 'invalid_graphql_request' },
    { what: 'no query', init: { method: 'POST', headers: json, body: '{}' }, status: 400, code: 'invalid_graphql_request' },
    { what: 'a body that is not JSON', init: { method: 'POST', headers: json, body: '{"query":' }, status: 400, code: 'invalid_graphql_request' },
    {
      what: 'variables that are not an object',
      init: { method: 'POST', headers: json, body: '{"query":"{ __typename }","variables":5}' },
      status: 400,
      code: 'invalid_graphql_request',
    },
    {
      what: 'an operationName the document lacks',
      init: { method: 'POST', headers: json, body: '{"query":"query A { __typename }","operationName":"B"}' },
      status: 400,
      code: 'invalid_graphql_request',
      param: 'operationName',
    },
    // GraphQL over HTTP: with Accept application/json a document that was read and then failed is HTTP 200.
    { what: 'a syntax error', init: { method: 'POST', headers: json, body: '{"query":"{"}' }, status: 200, code: 'graphql_parse_failed' },
    {
      what: 'an unknown field',
      init: { method: 'POST', headers: json, body: '{"query":"{ nope }"}' },
      status: 200,
      code: 'graphql_validation_failed',
    },
    {
      what: 'an unknown field (graphql-response+json)',
      init: { method: 'POST', headers: { ...json, accept: 'application/graphql-response+json' }, body: '{"query":"{ nope }"}' },
      status: 400,
      code: 'graphql_validation_failed',
    },
  ];
  for (const c of cases) {
    it(`${c.what}: HTTP ${c.status}, ${c.code}`, async () => {
      const res = await t.rest(c.init.path ?? '/graphql', c.init);
      expect(res.status, res.text).toBe(c.status);
      expectGraphQLError(res, c.code, c.param);
      const error = res.body.errors[0];
      expect(error.extensions.type).toBe(ERROR_CATALOGUE[c.code as ErrorCode].type);
      expect(error.extensions.status).toBe(statusOf(c.code as ErrorCode));
      expect(error.extensions.http).toBeUndefined();
    });
  }
});

describe('GraphQL argument mistakes are parameter errors, and a cached validation keeps its code', () => {
  it('a written value its argument cannot take, or an unknown argument: invalid_parameters naming the argument', async () => {
    const overflow = await t.graphql('{ inspirationPhotos(first: 2147483648) { totalCount } }');
    expect(overflow.status).toBe(400);
    expectGraphQLError(overflow, 'invalid_parameters', 'first');
    expect(overflow.body.errors[0].message).toMatch(/first must be 1 to 100/);
    expectGraphQLError(await t.graphql('{ vendors(first: "ten") { totalCount } }'), 'invalid_parameters', 'first');
    expectGraphQLError(await t.graphql('{ vendors(colour: "red") { totalCount } }'), 'invalid_parameters', 'colour');
    // The same mistakes in variables: invalid_parameters naming the variable (graphql-tools wraps the scalar's error).
    const badEnum = await t.graphql('query($s: VendorSort) { vendors(sortBy: $s) { totalCount } }', { s: 'price_low_to_high' });
    expectGraphQLError(badEnum, 'invalid_parameters', 's');
    expect(badEnum.body.errors[0].message).toMatch(/^Variable "\$s" got invalid value/);
    expectGraphQLError(await t.graphql('query($n: Int) { vendors(first: $n) { totalCount } }', { n: 'x' }), 'invalid_parameters', 'n');
    // A variable declared with a type its argument cannot take is the document's mistake too, whatever its value.
    const declared = await t.graphql('query($s: String) { pricingEstimate(season: $s) { estimatedTotal } }', { s: 'PEAK' });
    expectGraphQLError(declared, 'graphql_validation_failed');
    // A field the type does not have is the document's mistake, not a parameter's.
    expectGraphQLError(await t.graphql('{ vendors { colour } }'), 'graphql_validation_failed');
  });

  it('the same refused document twice: the document cache answers the second, with the same code and its own request id', async () => {
    for (const [document, code] of [
      ['mutation { a: createVendorInquiry(input: {}) { inquiryId } b: createVendorInquiry(input: {}) { inquiryId } }', 'sms_consent_required'],
      [
        'mutation { a: __typename b: createVendorInquiry(input: {smsConsent: true}) { inquiryId } c: createVenueInquiry(input: {smsConsent: true}) { inquiryId } }',
        'invalid_parameters',
      ],
      ['{ inspirationPhotos(first: 2147483648) { totalCount } }', 'invalid_parameters'],
      ['{ nope }', 'graphql_validation_failed'],
    ] as const) {
      const first = await t.graphql(document);
      const second = await t.graphql(document);
      expectGraphQLError(first, code);
      expectGraphQLError(second, code);
      expect(second.body.errors[0].extensions.requestId).not.toBe(first.body.errors[0].extensions.requestId);
    }
  });
});

describe('inquiry bodies', () => {
  it('must be application/json: another Content-Type or a Content-Encoding is 415 unsupported_media_type; nothing stored', async () => {
    const before = await t.db.prisma.inquiry.count();
    const body = JSON.stringify(validBody('venue', tg));
    for (const headers of [{ 'content-type': 'text/plain' }, {}, { 'content-type': 'application/x-www-form-urlencoded' }] as Record<
      string,
      string
    >[]) {
      const res = await t.rest('/api/v1/inquiries/venue', { method: 'POST', headers, body });
      expectRestError(res, 415, 'unsupported_media_type');
      expect(res.body.error.type).toBe('request_error');
    }
    const gz = await t.rest('/api/v1/inquiries/venue', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    });
    expectRestError(gz, 415, 'unsupported_media_type');
    const charset = await t.rest('/api/v1/inquiries/venue', { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body });
    expect(charset.status, charset.text).toBe(201);
    expect(await t.db.prisma.inquiry.count()).toBe(before + 1);
  });

  it('413 payload_too_large has type request_error (its status is its own, not §7 invalid_request_error → 400)', async () => {
    const res = await t.rest('/api/v1/inquiries/vendor', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validBody('vendor', tg, { message: 'x'.repeat(70_000) })),
    });
    expectRestError(res, 413, 'payload_too_large');
    expect(res.body.error.type).toBe('request_error');
  });

  it('dates are bounded to the years 2000–2100: 0000-01-01 and 2101-01-01 are refused, 2000-01-01 and 2100-12-31 pass', async () => {
    expectRestError(await postRest(t, 'venue', validBody('venue', tg, { start_date: '0000-01-01' })), 400, 'invalid_parameters', 'start_date');
    expectRestError(
      await postRest(t, 'venue', validBody('venue', tg, { start_date: '2100-12-30', end_date: '2101-01-01' })),
      400,
      'invalid_parameters',
      'end_date',
    );
    expectRestError(await postRest(t, 'vendor', validBody('vendor', tg, { event_date: '1999-12-31' })), 400, 'invalid_parameters', 'event_date');
    const gql = await postGraphql(t, 'vendor', validBody('vendor', tg, { event_date: '0000-01-01' }));
    expectGraphQLError(gql, 'invalid_parameters', 'eventDate');
    expect((await postRest(t, 'vendor', validBody('vendor', tg, { event_date: '2000-01-01' }))).status).toBe(201);
    expect((await postRest(t, 'venue', validBody('venue', tg, { start_date: '2100-12-30', end_date: '2100-12-31' }))).status).toBe(201);
  });
});

describe('no PII in logs', () => {
  it('a full run (both surfaces, inquiries, errors, the outbox without a webhook) logs no name, e-mail, phone, message or key', async () => {
    const pii = {
      guest_name: 'Zebulon Quartermaine',
      guest_email: 'zebulon.q@private-mail.example',
      guest_phone: '+1 555 0199 8877',
      message: 'Our secret plans for the garden ceremony',
    };
    await postRest(t, 'venue', validBody('venue', tg, pii));
    await postGraphql(t, 'vendor', validBody('vendor', tg, pii));
    await postRest(t, 'venue', validBody('venue', tg, { ...pii, event_guests: -1 }));
    await postRest(t, 'vendor', validBody('vendor', tg, { ...pii, vendor_slug: 'no-such-vendor' }));
    await t.rest('/api/v1/venues?limit=1', { key: 'wv_live_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' });
    await t.rest('/api/v1/venues?limit=1');
    await t.graphql('{ venues(first: 1) { totalCount } }');
    const outboxLogs: string[] = [];
    const dispatcher = createDispatcher({
      prisma: t.db.prisma,
      log: createLogger({ destination: new Writable({ write: (c, _e, done) => (outboxLogs.push(String(c)), done()) }) }),
      pollMs: 10,
    });
    dispatcher.start();
    for (let i = 0; i < 100 && (await t.db.prisma.notificationOutbox.count({ where: { deliveredAt: null } })) > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    await dispatcher.stop();
    const everything = [...t.logs, ...outboxLogs].join('\n');
    expect(outboxLogs.join('')).toContain('new lead');
    for (const secret of [
      ...Object.values(pii),
      t.keys.partner,
      t.keys.pro,
      t.keys.free,
      'wv_live_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      'Zebulon',
      'zebulon',
    ]) {
      expect(everything, `log mentions ${secret}`).not.toContain(secret);
    }
    expect(everything).toContain('"msg":"request"');
  });
});
