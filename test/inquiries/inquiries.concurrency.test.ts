import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectRestError, uniqueKeyPrefix, type TestApp, type TestResponse } from '../support/app.js';
import { postGraphql, postRest, resultOf, targets, validBody, type Targets } from './support.js';

let t: TestApp;
let tg: Targets;
beforeAll(async () => {
  t = await createTestApp({ limits: 'spec' });
  tg = await targets(t);
});
afterAll(() => t.close());

/** Every response is the one original 201 or 409 idempotency_in_progress; exactly one lead and one used slot. */
async function expectOneLead(responses: TestResponse[], kind: 'venue' | 'vendor', name: string, key: string) {
  const ids = new Set<string>();
  for (const res of responses) {
    if (res.status === 409) expectRestError(res, 409, 'idempotency_in_progress');
    else if (res.body?.data?.inquiry_id) {
      expect(res.status).toBe(201);
      ids.add(res.body.data.inquiry_id);
    } else {
      const data = resultOf(kind, res);
      if (data) ids.add(data.inquiryId);
      else expect(res.body?.errors?.[0]?.extensions?.code, res.text).toBe('idempotency_in_progress');
    }
  }
  expect(ids.size).toBe(1);
  expect(await t.db.prisma.inquiry.count({ where: { guestName: name } })).toBe(1);
  const status = await t.graphql('{ rateLimit { venueInquiriesPerDay { used } vendorInquiriesPerDay { used } } }', {}, { key });
  return status.body.data.rateLimit;
}

describe('concurrency (§4.12)', () => {
  it('20 parallel identical requests with one key (both surfaces mixed): one lead, one slot', async () => {
    const name = `race-${randomUUID()}`;
    const idem = randomUUID();
    const body = validBody('venue', tg, { guest_name: name });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 4 === 3 ? postGraphql(t, 'venue', body, { idem, key: t.keys.pro }) : postRest(t, 'venue', body, { idem, key: t.keys.pro }),
      ),
    );
    const usage = await expectOneLead(responses, 'venue', name, t.keys.pro);
    expect(usage.venueInquiriesPerDay.used).toBe(1);
  });

  it('20 parallel identical requests without a key are deduplicated by fingerprint', async () => {
    const name = `race-fp-${randomUUID()}`;
    const body = validBody('vendor', tg, { guest_name: name });
    const responses = await Promise.all(Array.from({ length: 20 }, () => postRest(t, 'vendor', body, { key: t.keys.partner })));
    const usage = await expectOneLead(responses, 'vendor', name, t.keys.partner);
    expect(usage.vendorInquiriesPerDay.used).toBe(1);
  });

  it('the same race across two app nodes sharing the database (and Redis when TEST_REDIS_URL is set)', async () => {
    const keyPrefix = uniqueKeyPrefix();
    const a = await createTestApp({ database: t.db, limits: 'spec', keyPrefix });
    const b = await createTestApp({ database: t.db, limits: 'spec', keyPrefix });
    try {
      const name = `race-2n-${randomUUID()}`;
      const idem = randomUUID();
      const key = a.keys.partner;
      const body = validBody('venue', tg, { guest_name: name });
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => postRest(i % 2 ? a : b, 'venue', body, { idem, key })));
      const ids = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.data.inquiry_id));
      for (const r of responses) if (r.status !== 201) expectRestError(r, 409, 'idempotency_in_progress');
      expect(ids.size).toBe(1);
      expect(await t.db.prisma.inquiry.count({ where: { guestName: name } })).toBe(1);
      const status = await a.graphql('{ rateLimit { venueInquiriesPerDay { used } } }', {}, { key });
      if (process.env.TEST_REDIS_URL) expect(status.body.data.rateLimit.venueInquiriesPerDay.used).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
