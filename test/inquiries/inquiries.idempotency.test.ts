import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { canonicalJson, sha256 } from '../../src/inquiries/idempotency.js';
import { camelBody, postGraphql, postRest, resultOf, targets, validBody, type Targets } from './support.js';
import { listenApp } from '../support/processes.js';

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp();
  tg = await targets(t);
});
afterAll(() => t.close());

const leadsNamed = (guestName: string) => t.db.prisma.inquiry.count({ where: { guestName } });
const unique = (label: string) => `${label}-${randomUUID()}`;

describe('§4.12 idempotency', () => {
  it('same key, same body: the original 201 (same inquiry_id), one lead, on both surfaces and across them', async () => {
    const name = unique('replay');
    const key = unique('key');
    const body = validBody('venue', tg, { guest_name: name });
    const first = await postRest(t, 'venue', body, { idem: key });
    expect(first.status, first.text).toBe(201);
    const again = await postRest(t, 'venue', { ...body }, { idem: key });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    // Key order does not matter (canonical JSON).
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await postRest(t, 'venue', reordered, { idem: key })).body.data.inquiry_id).toBe(first.body.data.inquiry_id);
    const viaArgument = resultOf('venue', await postGraphql(t, 'venue', body, { idem: key }));
    const viaHeader = resultOf('venue', await postGraphql(t, 'venue', body, { idem: key, header: true }));
    expect(viaArgument.inquiryId).toBe(first.body.data.inquiry_id);
    expect(viaHeader.inquiryId).toBe(first.body.data.inquiry_id);
    expect(await leadsNamed(name)).toBe(1);
  });

  it('same key, different body: 409 idempotency_conflict on both surfaces', async () => {
    const key = unique('key');
    const name = unique('conflict');
    expect((await postRest(t, 'vendor', validBody('vendor', tg, { guest_name: name }), { idem: key })).status).toBe(201);
    const rest = await postRest(t, 'vendor', validBody('vendor', tg, { guest_name: name, message: 'changed' }), { idem: key });
    expectRestError(rest, 409, 'idempotency_conflict');
    expect(rest.body.error.type).toBe('conflict');
    expectGraphQLError(
      await postGraphql(t, 'vendor', validBody('vendor', tg, { guest_name: name, message: 'changed' }), { idem: key }),
      'idempotency_conflict',
    );
    expect(await leadsNamed(name)).toBe(1);
  });

  it('no key: the body is fingerprinted, so an identical retry is deduplicated; another API key is separate', async () => {
    const name = unique('fp');
    const body = validBody('vendor', tg, { guest_name: name });
    const a = await postRest(t, 'vendor', body);
    const b = await postRest(t, 'vendor', body);
    expect(a.status).toBe(201);
    expect(b.body.data.inquiry_id).toBe(a.body.data.inquiry_id);
    const other = await postRest(t, 'vendor', body, { key: t.keys.free });
    expect(other.status).toBe(201);
    expect(other.body.data.inquiry_id).not.toBe(a.body.data.inquiry_id);
    expect(await leadsNamed(name)).toBe(2);
  });

  it('keys are scoped per API key: the same idempotency key under two API keys gives two leads', async () => {
    const key = unique('key');
    const name = unique('tenant');
    const a = await postRest(t, 'venue', validBody('venue', tg, { guest_name: name }), { idem: key, key: t.keys.pro });
    const b = await postRest(t, 'venue', validBody('venue', tg, { guest_name: name }), { idem: key, key: t.keys.free });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.inquiry_id).not.toBe(b.body.data.inquiry_id);
  });

  it('a live claim answers 409 idempotency_in_progress with a hint; a lapsed lease or an expired key is retaken', async () => {
    const name = unique('lease');
    const body = validBody('venue', tg, { guest_name: name });
    const first = await postRest(t, 'venue', validBody('venue', tg, { guest_name: unique('seed') }), { idem: unique('k') });
    const apiKeyId = (await t.db.prisma.inquiry.findUniqueOrThrow({ where: { id: first.body.data.inquiry_id } })).apiKeyId;
    const bodyHash = sha256(canonicalJson(camelBody(body)));
    const now = Date.now();
    const seed = (key: string, lockedUntil: number, expiresAt: number, state = 'in_progress', hash = bodyHash) =>
      t.db.prisma.idempotencyRecord.create({
        data: {
          apiKeyId,
          scope: 'venue',
          key,
          bodyHash: hash,
          state,
          token: randomUUID(),
          lockedUntil: new Date(lockedUntil),
          createdAt: new Date(now),
          expiresAt: new Date(expiresAt),
        },
      });
    await seed('live', now + 30_000, now + 86_400_000);
    const live = await postRest(t, 'venue', body, { idem: 'live' });
    expectRestError(live, 409, 'idempotency_in_progress');
    expect(live.body.error.hint).toMatch(/[Rr]etry/);
    // §8.3: Retry-After is for 429 only; the wait is stated in the message instead.
    expect(live.headers.get('retry-after')).toBeNull();
    expect(live.body.error.message).toMatch(/retry in 2 seconds/);
    const server = await listenApp(t.app);
    try {
      const overSocket = await fetch(`${server.base}/api/v1/inquiries/venue`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.keys.partner}`, 'content-type': 'application/json', 'x-idempotency-key': 'live' },
        body: JSON.stringify(body),
      });
      expect(overSocket.status).toBe(409);
      expect(overSocket.headers.get('retry-after')).toBeNull();
      expect(((await overSocket.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    } finally {
      await server.close();
    }
    expectGraphQLError(await postGraphql(t, 'venue', body, { idem: 'live' }), 'idempotency_in_progress');
    await seed('stale', now - 1, now + 86_400_000);
    expect((await postRest(t, 'venue', body, { idem: 'stale' })).status).toBe(201);
    await seed('expired', now - 90_000_000, now - 1, 'completed', 'another-body');
    expect((await postRest(t, 'venue', body, { idem: 'expired' })).status).toBe(201);
    expect(await leadsNamed(name)).toBe(2);
  });

  it('a failed insert answers 500 insert_failed, keeps nothing, and a retry with the same key succeeds once', async () => {
    const name = unique('fail');
    const key = unique('key');
    const body = validBody('venue', tg, { guest_name: name });
    await t.db.prisma.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION inquiry_fail() RETURNS trigger AS $$ BEGIN IF NEW."guestName" = '${name}' THEN RAISE EXCEPTION 'injected'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await t.db.prisma.$executeRawUnsafe(`CREATE TRIGGER inquiry_fail BEFORE INSERT ON "Inquiry" FOR EACH ROW EXECUTE FUNCTION inquiry_fail()`);
    try {
      const failed = await postRest(t, 'venue', body, { idem: key });
      expectRestError(failed, 500, 'insert_failed');
      expect(failed.body.error.hint).toMatch(/safe/);
      expect(await t.db.prisma.idempotencyRecord.count({ where: { key } })).toBe(0);
    } finally {
      await t.db.prisma.$executeRawUnsafe('DROP TRIGGER inquiry_fail ON "Inquiry"');
    }
    const retry = await postRest(t, 'venue', body, { idem: key });
    expect(retry.status, retry.text).toBe(201);
    expect((await postRest(t, 'venue', body, { idem: key })).body.data.inquiry_id).toBe(retry.body.data.inquiry_id);
    expect(await leadsNamed(name)).toBe(1);
    expect(await t.db.prisma.notificationOutbox.count({ where: { inquiryId: retry.body.data.inquiry_id } })).toBe(1);
  });
});

describe('inquiry slots (§8 row 4, §8.8)', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ database: t.db, limits: 'spec' });
  });
  afterAll(() => s.close());

  it('5 per day per kind; replays and refused requests take no slot; the 6th new one is 429 inquiry_rate_limit_exceeded', async () => {
    const key = s.keys.pro;
    expectRestError(await postRest(s, 'venue', validBody('venue', tg, { property_slug: 'no/such' }), { key }), 404, 'venue_not_found');
    const first = await postRest(s, 'venue', validBody('venue', tg, { guest_name: unique('slot') }), { key, idem: 'slot-1' });
    expect(first.status, first.text).toBe(201);
    for (let i = 0; i < 3; i++)
      expect((await postRest(s, 'venue', validBody('venue', tg, { guest_name: unique('slot') }), { key })).status).toBe(201);
    expect((await postRest(s, 'venue', validBody('venue', tg, { guest_name: 'x' }), { key, idem: 'slot-x' })).status).toBe(201);
    const replay = await postRest(s, 'venue', validBody('venue', tg, { guest_name: 'x' }), { key, idem: 'slot-x' });
    expect(replay.status).toBe(201);
    const sixth = await postRest(s, 'venue', validBody('venue', tg, { guest_name: unique('slot') }), { key });
    expectRestError(sixth, 429, 'inquiry_rate_limit_exceeded');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expectGraphQLError(await postGraphql(s, 'venue', validBody('venue', tg, { guest_name: unique('slot') }), { key }), 'inquiry_rate_limit_exceeded');
    // The other kind has its own 5; a replay of a completed key still answers.
    expect((await postRest(s, 'vendor', validBody('vendor', tg, { guest_name: unique('slot') }), { key })).status).toBe(201);
    expect((await postRest(s, 'venue', validBody('venue', tg, { guest_name: 'x' }), { key, idem: 'slot-x' })).status).toBe(201);
  });
});
