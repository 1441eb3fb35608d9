import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { postGraphql, postRest, resultOf, targets, validBody, type Kind, type Targets } from './support.js';

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
});
afterAll(() => t.close());

const leads = () => t.db.prisma.inquiry.count();
let seq = 0;
/** A fresh idempotency key so every case is a first execution. */
const fresh = () => `rules-${++seq}-${Date.now()}`;

/** Asserts the same code and param on both surfaces (REST snake_case, GraphQL camelCase); nothing stored. */
async function expectBoth(kind: Kind, body: Record<string, unknown>, status: number, code: string, param?: string) {
  const before = await leads();
  const rest = await postRest(t, kind, body, { idem: fresh() });
  expectRestError(rest, status, code, param);
  const gql = await postGraphql(t, kind, body, { idem: fresh() });
  expectGraphQLError(
    gql,
    code,
    param?.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
  );
  expect(gql.body.errors[0].extensions.status).toBe(status);
  expect(await leads()).toBe(before);
  return { rest, gql };
}

describe.each(['venue', 'vendor'] as const)('%s inquiry', (kind) => {
  it('creates a lead: 201 with inquiry_id, status submitted and the next-steps message, stored with every field', async () => {
    const body = validBody(kind, tg, {
      guest_phone: '+1 555 0100',
      message: 'Hello',
      ...(kind === 'venue'
        ? { overnight_guests: 12, estimated_price: 25_000 }
        : { event_date: '2027-09-01', event_location: 'Napa', event_guests: 120, budget_range: '$5k-$8k', service_needed: 'Photography' }),
    });
    const res = await postRest(t, kind, body);
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body.data).sort()).toEqual(['inquiry_id', 'message', 'status']);
    expect(res.body.data.inquiry_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.body.data.status).toBe('submitted');
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.data.message).toMatch(kind === 'venue' ? /24 hours/ : /3 business days/);
    expect(res.body.data.message).toMatch(body.sms_consent ? /text/ : /e-mail/);
    const row = await t.db.prisma.inquiry.findUniqueOrThrow({ where: { id: res.body.data.inquiry_id } });
    expect(row).toMatchObject({
      kind,
      status: 'submitted',
      surface: 'rest',
      smsConsent: body.sms_consent,
      smsConsentSource: 'rest',
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
      guestPhone: '+1 555 0100',
      message: 'Hello',
    });
    if (kind === 'venue')
      expect(row).toMatchObject({
        targetSlug: tg.venue,
        startDate: '2027-06-10',
        endDate: '2027-06-13',
        eventGuests: 80,
        overnightGuests: 12,
        estimatedPrice: 25_000,
      });
    else
      expect(row).toMatchObject({
        targetSlug: tg.vendor,
        eventDate: '2027-09-01',
        eventLocation: 'Napa',
        eventGuests: 120,
        budgetRange: '$5k-$8k',
        serviceNeeded: 'Photography',
      });
    expect(row.smsConsentAt).toBeInstanceOf(Date);
    expect(await t.db.prisma.notificationOutbox.count({ where: { inquiryId: row.id } })).toBe(1);
    const key = await t.db.prisma.apiKey.findFirstOrThrow({ where: { id: row.apiKeyId } });
    expect(key.tier).toBe('partner');
  });

  it('creates a lead through GraphQL with the surface recorded', async () => {
    const res = await postGraphql(t, kind, validBody(kind, tg, { guest_name: 'Grace' }));
    const data = resultOf(kind, res);
    expect(data?.status, res.text).toBe('SUBMITTED');
    const row = await t.db.prisma.inquiry.findUniqueOrThrow({ where: { id: data.inquiryId } });
    expect(row).toMatchObject({ surface: 'graphql', smsConsentSource: 'graphql', guestName: 'Grace' });
  });

  it('rule 1: sms_consent absent or not a boolean → sms_consent_required, before any other field', async () => {
    const { sms_consent: _omit, ...without } = validBody(kind, tg);
    await expectBoth(kind, without, 400, 'sms_consent_required', 'sms_consent');
    for (const notBoolean of ['true', 1, 'yes', [], {}])
      await expectBoth(kind, { ...without, sms_consent: notBoolean }, 400, 'sms_consent_required', 'sms_consent');
    await expectBoth(kind, { ...without, sms_consent: null, guest_email: 'bad' }, 400, 'sms_consent_required', 'sms_consent');
    const res = await postRest(t, kind, { ...without, sms_consent: 1 });
    expect(res.body.error.type).toBe('invalid_request_error');
  });

  it('rule 2: a body that is not JSON → 400 invalid_json; a non-object → invalid_parameters', async () => {
    expectRestError(await postRest(t, kind, null, { raw: '{"guest_name": ' }), 400, 'invalid_json');
    expectRestError(await postRest(t, kind, null, { raw: '' }), 400, 'invalid_json');
    expectRestError(await postRest(t, kind, null, { raw: '[1]' }), 400, 'invalid_parameters');
  });

  it('rule 3: every failing field is named with its problem in one invalid_parameters error', async () => {
    const bad =
      kind === 'venue'
        ? validBody(kind, tg, { guest_email: 'not-an-email', event_guests: 0, start_date: '2027-02-30' })
        : validBody(kind, tg, { guest_email: 'not-an-email', event_guests: -1, event_date: '2027-02-30' });
    const { rest, gql } = await expectBoth(kind, bad, 400, 'invalid_parameters');
    expect(rest.body.error.type).toBe('validation_error');
    expect(rest.body.error.message).toMatch(/guest_email must be a valid email/);
    expect(rest.body.error.message).toMatch(/event_guests must be at least/);
    expect(rest.body.error.message).toMatch(kind === 'venue' ? /start_date must be a real ISO 8601 date/ : /event_date must be a real ISO 8601 date/);
    expect(gql.body.errors[0].message).toMatch(/guestEmail must be a valid email/);
  });

  it('refuses server-owned and unknown fields (id, status, created_at)', async () => {
    for (const field of ['id', 'status', 'created_at', 'inquiry_id']) {
      const res = await postRest(t, kind, validBody(kind, tg, { [field]: 'x' }));
      expectRestError(res, 400, 'invalid_parameters', field);
    }
  });

  it('refuses an oversized body with 413 before parsing', async () => {
    const res = await postRest(t, kind, null, { raw: `{"message":"${'x'.repeat(70_000)}"` });
    expectRestError(res, 413, 'payload_too_large');
    const gql = await postGraphql(t, kind, validBody(kind, tg, { message: 'x'.repeat(70_000) }));
    expect(gql.body.errors[0].extensions.code).toBe('payload_too_large');
  });

  it('refuses an idempotency key longer than 255 characters', async () => {
    expectRestError(await postRest(t, kind, validBody(kind, tg), { idem: 'k'.repeat(256) }), 400, 'invalid_parameters');
    expect((await postRest(t, kind, validBody(kind, tg, { guest_name: 'Key255' }), { idem: 'k'.repeat(255) })).status).toBe(201);
  });
});

/** [field, value at the edge (accepted), value just past it (refused)] per §2.11. */
const VENUE_BOUNDS: Array<[string, unknown, unknown]> = [
  ['property_slug', undefined, ''],
  ['event_guests', 1, 0],
  ['event_guests', 10_000, 10_001],
  ['event_guests', 50, 50.5],
  ['overnight_guests', 0, -1],
  ['overnight_guests', 10_000, 10_001],
  ['guest_name', 'n'.repeat(500), 'n'.repeat(501)],
  ['guest_name', 'n', ''],
  ['guest_email', `${'e'.repeat(488)}@example.com`, `${'e'.repeat(489)}@example.com`],
  ['guest_phone', 'p'.repeat(100), 'p'.repeat(101)],
  ['message', 'm'.repeat(5000), 'm'.repeat(5001)],
  ['estimated_price', 0, -1],
  ['estimated_price', 100_000, 100_001],
  ['estimated_price', 500, 500.5],
  ['start_date', '2024-02-29', '2023-02-29'],
  ['end_date', '2027-06-11', '2027-06-10'],
  ['start_date', '2027-06-10', '10/06/2027'],
];
const VENDOR_BOUNDS: Array<[string, unknown, unknown]> = [
  ['vendor_slug', undefined, ''],
  ['guest_name', 'n'.repeat(500), 'n'.repeat(501)],
  ['guest_email', `${'e'.repeat(488)}@example.com`, 'a@b'],
  ['guest_phone', 'p'.repeat(100), 'p'.repeat(101)],
  ['event_date', '2027-12-31', '2027-13-01'],
  ['event_location', 'l'.repeat(500), 'l'.repeat(501)],
  ['event_guests', 0, -1],
  ['event_guests', 10_000, 10_001],
  ['budget_range', 'b'.repeat(100), 'b'.repeat(101)],
  ['service_needed', 's'.repeat(500), 's'.repeat(501)],
  ['message', 'm'.repeat(5000), 'm'.repeat(5001)],
];

describe.each([
  ['venue', VENUE_BOUNDS],
  ['vendor', VENDOR_BOUNDS],
] as const)('%s field bounds (§2.11)', (kind, bounds) => {
  it.each(bounds.map(([field, ok, bad]) => [field, ok, bad] as const))(
    '%s: edge accepted, just past refused on both surfaces',
    async (field, ok, bad) => {
      if (ok !== undefined) {
        const res = await postRest(t, kind, validBody(kind, tg, { [field]: ok }), { idem: fresh() });
        expect(res.status, res.text).toBe(201);
        const gql = await postGraphql(t, kind, validBody(kind, tg, { [field]: ok }), { idem: fresh() });
        expect(resultOf(kind, gql)?.status, gql.text).toBe('SUBMITTED');
      }
      const { rest } = await expectBoth(kind, validBody(kind, tg, { [field]: bad }), 400, 'invalid_parameters', field);
      expect(rest.body.error.message).toContain(field);
    },
  );
});

describe('targets (rule 4)', () => {
  it('unknown or unpublished venue → 404 venue_not_found', async () => {
    await expectBoth('venue', validBody('venue', tg, { property_slug: 'no/such/venue' }), 404, 'venue_not_found', 'property_slug');
    await expectBoth('venue', validBody('venue', tg, { property_slug: tg.unpublishedVenue }), 404, 'venue_not_found', 'property_slug');
  });
  it('unknown vendor → 404 vendor_not_found; affiliate-only → 400 affiliate_only_vendor pointing at its link', async () => {
    await expectBoth('vendor', validBody('vendor', tg, { vendor_slug: 'no-such-vendor' }), 404, 'vendor_not_found', 'vendor_slug');
    const { rest } = await expectBoth(
      'vendor',
      validBody('vendor', tg, { vendor_slug: tg.affiliateVendor.slug }),
      400,
      'affiliate_only_vendor',
      'vendor_slug',
    );
    expect(rest.body.error.hint).toMatch(/affiliate_link/);
    if (tg.affiliateVendor.link) expect(rest.body.error.hint).toContain(tg.affiliateVendor.link);
  });
  it('a venue stay must end after it starts', async () => {
    const { rest } = await expectBoth('venue', validBody('venue', tg, { end_date: '2027-06-10' }), 400, 'invalid_parameters', 'end_date');
    expect(rest.body.error.message).toMatch(/end_date must be after start_date/);
  });
});

describe('OpenAPI', () => {
  it('documents both POST routes with their JSON body, the X-Idempotency-Key header and 201', async () => {
    const res = await t.rest('/api/v1/openapi.json', { key: null });
    for (const [path, required] of [
      ['/inquiries/venue', 'property_slug'],
      ['/inquiries/vendor', 'vendor_slug'],
    ] as const) {
      const post = res.body.paths[path].post;
      expect(Object.keys(post.responses)).toContain('201');
      const schema = post.requestBody.content['application/json'].schema;
      expect(schema.required).toEqual(expect.arrayContaining([required, 'sms_consent', 'guest_name', 'guest_email']));
      expect(schema.additionalProperties).toBe(false);
      expect(schema.properties.sms_consent.type).toBe('boolean');
      expect(post.parameters).toContainEqual(
        expect.objectContaining({ name: 'X-Idempotency-Key', in: 'header', schema: { type: 'string', minLength: 1, maxLength: 255 } }),
      );
      for (const code of [
        'idempotency_conflict',
        'idempotency_in_progress',
        'inquiry_rate_limit_exceeded',
        'insert_failed',
        'sms_consent_required',
        'invalid_json',
      ]) {
        expect(JSON.stringify(post.responses)).toContain(code);
      }
    }
    expect(res.body.paths['/inquiries/venue'].post.description).toMatch(/estimated_price is stored as the estimate the client displayed/);
  });
});

describe('GraphQL input types say the truth; the §4.10 rule order holds before GraphQL coerces anything', () => {
  const typeOf = async (name: string) =>
    (await t.graphql(`{ __type(name: "${name}") { inputFields { name type { kind name ofType { name } } } } }`)).body.data.__type.inputFields as {
      name: string;
      type: { kind: string; name: string | null; ofType: { name: string } | null };
    }[];
  const shown = (f: { type: { kind: string; name: string | null; ofType: { name: string } | null } }) =>
    f.type.kind === 'NON_NULL' ? `${f.type.ofType!.name}!` : f.type.name;

  it('VenueInquiryInput and VendorInquiryInput: Int for whole numbers, Boolean! smsConsent, required fields non-null', async () => {
    const venue = Object.fromEntries((await typeOf('VenueInquiryInput')).map((f) => [f.name, shown(f)]));
    expect(venue).toEqual({
      propertySlug: 'String!',
      startDate: 'String!',
      endDate: 'String!',
      eventGuests: 'Int!',
      overnightGuests: 'Int',
      guestName: 'String!',
      guestEmail: 'String!',
      guestPhone: 'String',
      message: 'String',
      estimatedPrice: 'Int',
      smsConsent: 'Boolean!',
    });
    const vendor = Object.fromEntries((await typeOf('VendorInquiryInput')).map((f) => [f.name, shown(f)]));
    expect(vendor).toMatchObject({ vendorSlug: 'String!', guestName: 'String!', guestEmail: 'String!', eventGuests: 'Int', smsConsent: 'Boolean!' });
    const openapi = (await t.rest('/api/v1/openapi.json', { key: null })).body;
    const body = openapi.paths['/inquiries/venue'].post.requestBody.content['application/json'].schema;
    expect(body.properties.event_guests.type).toBe('integer');
    expect(body.properties.estimated_price.type).toBe('integer');
    expect([...body.required].sort()).toEqual([
      'end_date',
      'event_guests',
      'guest_email',
      'guest_name',
      'property_slug',
      'sms_consent',
      'start_date',
    ]);
  });

  it('an input written in the document: sms_consent_required, then every failing field, not a GraphQL type error', async () => {
    const before = await leads();
    const literal = (fields: string) => `mutation { createVenueInquiry(input: { ${fields} }) { inquiryId } }`;
    const valid = `propertySlug: "${tg.venue}", startDate: "2027-06-10", endDate: "2027-06-13", guestName: "Ada", guestEmail: "ada@example.com"`;
    const noConsent = await t.graphql(literal(`${valid}, eventGuests: 50.5`));
    expect(noConsent.status).toBe(400);
    expectGraphQLError(noConsent, 'sms_consent_required', 'smsConsent');
    const stringConsent = await t.graphql(literal(`${valid}, eventGuests: 80, smsConsent: "yes"`));
    expectGraphQLError(stringConsent, 'sms_consent_required', 'smsConsent');
    const fraction = await t.graphql(literal(`${valid}, eventGuests: 50.5, smsConsent: false`));
    expect(fraction.status).toBe(400);
    expectGraphQLError(fraction, 'invalid_parameters', 'eventGuests');
    expect(fraction.body.errors[0].message).toMatch(/eventGuests must be an integer/);
    expect(await leads()).toBe(before);
    const ok = await t.graphql(literal(`${valid}, eventGuests: 80, smsConsent: false`), {}, { headers: { 'x-idempotency-key': fresh() } });
    expect(ok.body.data?.createVenueInquiry?.inquiryId, ok.text).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a refusal depends on the request's variables, never on what the document cache kept for the same document", async () => {
    const body = validBody('venue', tg);
    const { sms_consent: _omit, ...without } = body;
    // The same document three times: refused, accepted, refused.
    expectGraphQLError(await postGraphql(t, 'venue', without, { idem: fresh() }), 'sms_consent_required', 'smsConsent');
    const ok = await postGraphql(t, 'venue', { ...body, guest_name: 'Cache check' }, { idem: fresh() });
    expect(resultOf('venue', ok)?.inquiryId, ok.text).toBeTruthy();
    expectGraphQLError(await postGraphql(t, 'venue', { ...body, event_guests: 1.5 }, { idem: fresh() }), 'invalid_parameters', 'eventGuests');
  });
});
