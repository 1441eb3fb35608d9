import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { ESTIMATOR_MODEL } from '../../src/pricing/data/estimator-model.js';

// §4.3 pricing estimator on both surfaces. Expected figures are computed by hand from data/estimator-model.ts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ empty: true, now: () => new Date('2026-06-15T12:00:00Z') });
});
afterAll(() => t.close());

const SELECTION = 'estimatedTotal priceRange perNightAverage perNight summary savingsVsTraditional { savingsPercent note } parameters';

async function bothSurfaces(query: string, args: string) {
  const rest = await t.rest(`/api/v1/venues/pricing${query ? `?${query}` : ''}`);
  expect(rest.status, rest.text).toBe(200);
  const gql = await t.graphql(`{ pricingEstimate${args ? `(${args})` : ''} { ${SELECTION} } }`);
  expect(gql.body.errors, gql.text).toBeUndefined();
  expect(gql.body.data.pricingEstimate).toEqual(camelKeys(rest.body.data, ['parameters']));
  return rest.body.data;
}

describe('GET /api/v1/venues/pricing and pricingEstimate', () => {
  it('uses the §4.3 defaults: California, weekend, 100 guests, 20 overnight, 2 nights, estate, peak', async () => {
    // venue stay 2700 × 1.3 × 2 = 7020; no extra lodging (20 ≤ 20); event 100 × 95 × 1.3 = 12350 → 19370.
    // traditional 100 × 190 × 1.3 + 20 × 2 × 170 × 1.3 = 24700 + 8840 = 33540 → (33540 − 19370) / 33540 = 42.2 %.
    const data = await bothSurfaces('', '');
    expect(data).toEqual({
      estimated_total: 19370,
      price_range: '$16,500–$23,200',
      per_night_average: 9685,
      per_night: 9685,
      summary: expect.stringContaining('$19,370'),
      savings_vs_traditional: { savings_percent: 42, note: expect.stringContaining('$33,540') },
      parameters: {
        region: 'california',
        event_type: 'weekend',
        event_guests: 100,
        overnight_guests: 20,
        nights: 2,
        venue_type: 'estate',
        season: 'peak',
        model_version: ESTIMATOR_MODEL.version,
      },
    });
    expect(data.summary).toContain('an estate in California');
  });

  it('applies every factor: Texas weekday barn, shoulder, 150 guests, 30 overnight, 3 nights', async () => {
    // stay 2700 × 0.9 × 0.8 × 0.85 × 0.75 × 3 = 3717.9; extra lodging 10 × 3 × 120 × 0.9 × 0.85 = 2754;
    // event 150 × 95 × 0.9 = 12825; total 19296.9 → 19300. Range 16405 → 16400, 23160 → 23200. Per night 6433.33.
    // traditional 150 × 190 × 0.9 × 0.85 × 0.75 + 30 × 3 × 170 × 0.9 × 0.85 = 16351.875 + 11704.5 → 28060; saving 31.2 %.
    const data = await bothSurfaces(
      'region=TX&event_type=weekday&event_guests=150&overnight_guests=30&nights=3&venue_type=barn&season=shoulder',
      'region: "TX", eventType: WEEKDAY, eventGuests: 150, overnightGuests: 30, nights: 3, venueType: BARN, season: SHOULDER',
    );
    expect(data.estimated_total).toBe(19300);
    expect(data.price_range).toBe('$16,400–$23,200');
    expect(data.per_night_average).toBe(6433.33);
    expect(data.per_night).toBe(data.per_night_average);
    expect(data.savings_vs_traditional).toEqual({ savings_percent: 31, note: expect.stringContaining('$28,060') });
    expect(data.parameters).toMatchObject({
      region: 'texas',
      event_type: 'weekday',
      event_guests: 150,
      overnight_guests: 30,
      nights: 3,
      venue_type: 'barn',
      season: 'shoulder',
    });
  });

  it('gives savings_vs_traditional null where the whole-property stay costs more (Lake Como, 1 guest, off season, 7 nights)', async () => {
    // stay 2700 × 1.55 × 0.7 × 7 = 20506.5; event 1 × 95 × 1.55 = 147.25 → 20653.75 → 20650;
    // traditional 190 × 1.55 × 0.7 + 1 × 7 × 170 × 1.55 × 0.7 = 206.15 + 1291.15 → 1500: no saving.
    const data = await bothSurfaces(
      'region=Lake%20Como&event_guests=1&overnight_guests=1&nights=7&season=off',
      'region: "Lake Como", eventGuests: 1, overnightGuests: 1, nights: 7, season: OFF',
    );
    expect(data.estimated_total).toBe(20650);
    expect(data.per_night_average).toBe(2950);
    expect(data.savings_vs_traditional).toBeNull();
    expect(data.parameters.region).toBe('italy-lake-como');
    expect(data.summary).toContain('1 event guest ');
  });

  it('accepts the region id, name or short form in any case', async () => {
    const cases: Array<[string, string]> = [
      ['new-york', 'new-york'],
      ['New%20York', 'new-york'],
      ['NY', 'new-york'],
      ['ny', 'new-york'],
      ['ca', 'california'],
      ['Lake%20Como', 'italy-lake-como'],
      ['ITALY-TUSCANY', 'italy-tuscany'],
      ['Tuscany', 'italy-tuscany'],
      ['north%20carolina', 'north-carolina'],
      ['other', 'other'],
      ['Australia', 'australia'],
      ['mexico', 'mexico'],
    ];
    for (const [given, id] of cases) {
      const res = await t.rest(`/api/v1/venues/pricing?region=${given}`);
      expect(res.body.data?.parameters.region, `${given}: ${res.text}`).toBe(id);
    }
    // The region only scales amounts by its cost index: "other" is the national average (index 1.00).
    const other = await t.rest('/api/v1/venues/pricing?region=other');
    expect(other.body.data.estimated_total).toBe(2700 * 2 + 100 * 95);
  });

  it('accepts each bound and refuses just past it with its own code, on both surfaces', async () => {
    const ok = [
      'event_guests=1',
      'event_guests=500',
      'overnight_guests=1',
      'overnight_guests=350',
      'nights=2',
      'nights=7',
      'event_type=WEEKDAY',
      'venue_type=Villa',
      'season=off',
    ];
    for (const query of ok) expect((await t.rest(`/api/v1/venues/pricing?${query}`)).status, query).toBe(200);
    const bad: Array<[string, string, string, string, string]> = [
      ['region=atlantis', 'invalid_region', 'region', 'region: "atlantis"', 'region'],
      ['region=', 'invalid_region', 'region', 'region: ""', 'region'],
      ['event_type=saturday', 'invalid_event_type', 'event_type', 'eventType: "saturday"', 'eventType'],
      ['event_guests=0', 'invalid_event_guests', 'event_guests', 'eventGuests: 0', 'eventGuests'],
      ['event_guests=501', 'invalid_event_guests', 'event_guests', 'eventGuests: 501', 'eventGuests'],
      ['overnight_guests=0', 'invalid_overnight_guests', 'overnight_guests', 'overnightGuests: 0', 'overnightGuests'],
      ['overnight_guests=351', 'invalid_overnight_guests', 'overnight_guests', 'overnightGuests: 351', 'overnightGuests'],
      ['nights=1', 'invalid_nights', 'nights', 'nights: 1', 'nights'],
      ['nights=8', 'invalid_nights', 'nights', 'nights: 8', 'nights'],
      ['venue_type=castle', 'invalid_venue_type', 'venue_type', 'venueType: "castle"', 'venueType'],
      ['season=winter', 'invalid_season', 'season', 'season: "winter"', 'season'],
    ];
    for (const [query, code, param, args, argument] of bad) {
      const rest = await t.rest(`/api/v1/venues/pricing?${query}`);
      expectRestError(rest, 400, code, param);
      expect(rest.body.error.type).toBe('validation_error');
      expectGraphQLError(await t.graphql(`{ pricingEstimate(${args}) { estimatedTotal } }`), code, argument);
    }
    // The closed sets are enums on GraphQL; a value outside one keeps the spec's code, written or in a variable.
    expectGraphQLError(await t.graphql('{ pricingEstimate(season: WINTER) { estimatedTotal } }'), 'invalid_season', 'season');
    expectGraphQLError(
      await t.graphql('query($t: EstimatorEventType) { pricingEstimate(eventType: $t) { estimatedTotal } }', { t: 'saturday' }),
      'invalid_event_type',
      'eventType',
    );
    expectGraphQLError(
      await t.graphql('query($v: EstimatorVenueType) { pricingEstimate(venueType: $v) { estimatedTotal } }', { v: 'CASTLE' }),
      'invalid_venue_type',
      'venueType',
    );
    const region = await t.rest('/api/v1/venues/pricing?region=atlantis');
    for (const id of ESTIMATOR_MODEL.regions.map((r) => r.id)) expect(region.body.error.message).toContain(id);
    // A value that is not an integer at all is refused before GraphQL sees it, with the parameter's own code and range.
    const fraction = await t.rest('/api/v1/venues/pricing?nights=2.5');
    expectRestError(fraction, 400, 'invalid_nights', 'nights');
    expect(fraction.body.error.message).toBe('nights must be an integer from 2 to 7.');
  });

  it('is not captured by /venues/{slug} (literal routes first)', async () => {
    const res = await t.rest('/api/v1/venues/pricing?nights=3');
    expect(res.status).toBe(200);
    expect(res.body.data.parameters.nights).toBe(3);
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('marks perNight deprecated in the schema', async () => {
    const res = await t.graphql('{ __type(name: "PricingResult") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
    const perNight = res.body.data.__type.fields.find((f: { name: string }) => f.name === 'perNight');
    expect(perNight).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringContaining('perNightAverage') });
  });
});
