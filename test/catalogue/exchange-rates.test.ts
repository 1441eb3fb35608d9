// The day's exchange rate is remembered in each process (src/catalogue/exchange-rates.ts) under the catalogue
// generation: a new rate row is converted with once the node sees the generation its write raised, and not up to
// 10 minutes later. The response cache is off here, so only the remembered rate stands between a write and an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { testClock } from '../limits/clock.js';
import { readCatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import type { Venue } from '../../src/generated/prisma/client.js';

// Past the seeded calendar (it ends on 2027-12-31), so a rate for today is a new row.
const clock = testClock('2028-01-03T10:00:00.000Z');
let generation = 0;
let t: TestApp;
let venue: Venue;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, catalogueGeneration: () => generation });
  generation = await readCatalogueGeneration(t.db.prisma);
  venue = await t.db.prisma.venue.findFirstOrThrow({
    where: { published: true, currency: 'AUD', weekdayBase: { not: null } },
    orderBy: { slug: 'asc' },
  });
});
afterAll(() => t.close());

async function pricing() {
  const res = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.pricing as { currency: string; rate_date: string; weekday_base: number };
}

/** Stored USD at `rate`, rounded up to the nearest 100 AUD as the API shows it. */
const aud = (usd: number, rate: number) => Math.ceil((usd * rate) / 100 - 1e-9) * 100;

describe('the day rate follows the catalogue generation', () => {
  it('a new rate row is used once the generation moves; under the same generation the remembered rate stays', async () => {
    const latest = await t.db.prisma.exchangeRate.findFirstOrThrow({ where: { base: 'USD', quote: 'AUD' }, orderBy: { rateDate: 'desc' } });
    const before = await pricing();
    expect(before).toMatchObject({ currency: 'AUD', rate_date: '2027-12-31', weekday_base: aud(venue.weekdayBase!, latest.rate) });

    await t.db.prisma.$executeRawUnsafe(`INSERT INTO "ExchangeRate" (base, quote, "rateDate", rate) VALUES ('USD', 'AUD', '2028-01-03', 2.5)`);
    const raised = await readCatalogueGeneration(t.db.prisma);
    expect(raised).toBe(generation + 1);

    // This node has not read the new generation yet: it converts at the rate it remembers, without asking again.
    clock.advance(60_000);
    let statements = 0;
    const stop = t.db.onQuery((e) => (statements += /"ExchangeRate"/.test(e.query) ? 1 : 0));
    expect(await pricing()).toEqual(before);
    stop();
    expect(statements).toBe(0);

    // Once it has (main.ts polls every 5 s), the new row is the day's rate: well within the 10 minutes it used to take.
    generation = raised;
    expect(await pricing()).toMatchObject({ rate_date: '2028-01-03', weekday_base: aud(venue.weekdayBase!, 2.5) });
  });
});
