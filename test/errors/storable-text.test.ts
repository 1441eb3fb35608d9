// Text PostgreSQL cannot store (NUL, unpaired surrogates) is 400 invalid_parameters naming the field, on both
// surfaces, in every kind of input; never a 500 or 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { postRest, targets, validBody, type Targets } from '../inquiries/support.js';
import { textProblem } from '../../src/errors/storable-text.js';

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
});
afterAll(() => t.close());

const NUL = '\u0000';
const LONE = '\uD800';

describe('textProblem', () => {
  it('accepts any well-formed text, refuses NUL and unpaired surrogates', () => {
    for (const ok of ['', 'café', '😀 emoji pairs', '\uD83D\uDE00', 'tab\tnew\nline', '\uFFFD']) expect(textProblem(ok)).toBeNull();
    for (const bad of [NUL, `a${NUL}b`, LONE, '\uDC00', `x\uD800y`, `\uDE00\uD83D`]) expect(textProblem(bad)).not.toBeNull();
  });
});

describe('REST query and path parameters', () => {
  const cases: Array<[string, string]> = [
    [`/api/v1/vendors?location=abc%00`, 'location'],
    [`/api/v1/vendors?state=ca%00`, 'state'],
    [`/api/v1/vendors?city=x%00`, 'city'],
    [`/api/v1/vendors?search=dj%00`, 'search'],
    [`/api/v1/venues?venue_type=barn%00`, 'venue_type'],
    [`/api/v1/venues?state=%00`, 'state'],
    [`/api/v1/knowledge/search?q=abc%00`, 'q'],
    [`/api/v1/vendors/abc%00`, 'slug'],
    [`/api/v1/blog/posts/abc%00`, 'slug'],
    [`/api/v1/regional-cost-ranges?state=tex%00as`, 'state'],
    [`/api/v1/venues/pricing?region=cal%00`, 'region'],
  ];
  for (const [path, param] of cases) {
    it(`${path} → 400 invalid_parameters (${param})`, async () => {
      expectRestError(await t.rest(path), 400, 'invalid_parameters', param);
    });
  }
});

describe('GraphQL arguments, as variables and as literals', () => {
  it('variables and literals with NUL or a lone surrogate are refused before execution', async () => {
    const byVariable = await t.graphql('query($l: String) { vendors(location: $l, first: 1) { totalCount } }', { l: `a${NUL}` });
    expect(byVariable.status).toBe(400);
    expectGraphQLError(byVariable, 'invalid_parameters', 'l');
    const literal = await t.graphql(`{ vendor(slug: "abc\\u0000") { slug } }`);
    expect(literal.status).toBe(400);
    expectGraphQLError(literal, 'invalid_parameters', 'slug');
    const surrogate = await t.graphql('query($q: String!) { knowledgeSearch(q: $q) { query } }', { q: `wedding ${LONE}` });
    expectGraphQLError(surrogate, 'invalid_parameters', 'q');
  });
  it('a document sent again is judged again: its bad literal refused every time, its other operation still runs', async () => {
    // The literal walk is kept per parsed document and operation (src/errors/storable-text.ts); this is what it keeps.
    const document = `query Bad { vendor(slug: "abc\\u0000") { slug } }
      query Good($s: String!) { vendor(slug: $s) { slug } }`;
    for (let round = 0; round < 2; round++) {
      const bad = await t.graphql(document, undefined, { operationName: 'Bad' });
      expect(bad.status).toBe(400);
      expectGraphQLError(bad, 'invalid_parameters', 'slug');
      const good = await t.graphql(document, { s: tg.vendor }, { operationName: 'Good' });
      expect(good.status).toBe(200);
      expect(good.body.data.vendor.slug).toBe(tg.vendor);
      const badVariable = await t.graphql(document, { s: `x${NUL}` }, { operationName: 'Good' });
      expectGraphQLError(badVariable, 'invalid_parameters', 's');
    }
  });
});

describe('inquiry bodies', () => {
  it('a NUL in a field is invalid_parameters naming it (REST and GraphQL); no lead written; sms_consent still comes first', async () => {
    const before = await t.db.prisma.inquiry.count();
    expectRestError(await postRest(t, 'venue', validBody('venue', tg, { guest_name: `Ada${NUL}` })), 400, 'invalid_parameters', 'guest_name');
    expectRestError(await postRest(t, 'vendor', validBody('vendor', tg, { message: `hi ${LONE}` })), 400, 'invalid_parameters', 'message');
    const raw = `{"property_slug":"${tg.venue}","start_date":"2027-06-10","end_date":"2027-06-13","event_guests":80,"guest_name":"A\\ud800","guest_email":"a@example.com","sms_consent":true}`;
    expectRestError(await postRest(t, 'venue', null, { raw }), 400, 'invalid_parameters', 'guest_name');
    const noConsent = validBody('venue', tg, { guest_name: `Ada${NUL}` });
    delete noConsent.sms_consent;
    expectRestError(await postRest(t, 'venue', noConsent), 400, 'sms_consent_required', 'sms_consent');
    const gql = await t.graphql('mutation($i: VenueInquiryInput!) { createVenueInquiry(input: $i) { inquiryId } }', {
      i: {
        propertySlug: tg.venue,
        startDate: '2027-06-10',
        endDate: '2027-06-13',
        eventGuests: 80,
        guestName: `A${NUL}`,
        guestEmail: 'a@example.com',
        smsConsent: true,
      },
    });
    expectGraphQLError(gql, 'invalid_parameters', 'guestName');
    expect(await t.db.prisma.inquiry.count()).toBe(before);
  });
});
