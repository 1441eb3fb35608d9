import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectGraphQLError, expectRestError, type TestApp, withEnumNames } from '../support/app.js';
import { REGIONS } from '../../src/pricing/regional-ranges.service.js';
import { CLIMATES, NATIONAL_FALLBACK } from '../../src/pricing/data/regional-climates.js';
import { US_STATES } from '../../src/pricing/data/regional-us-states.js';
import { US_CITIES } from '../../src/pricing/data/regional-us-cities.js';

// §4.5 regional budget ranges on both surfaces; figures hand-computed from the authored data.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ empty: true, now: () => new Date('2026-06-15T12:00:00Z') });
});
afterAll(() => t.close());

const range = async (query: string) => {
  const res = await t.rest(`/api/v1/regional-cost-ranges?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const SELECTION = `data { slug name type coverage matchedOn multipliersFrom range { low high display note } averageGuestCount
  seasonalMultipliers { peak shoulder offSeason } dayOfWeekMultipliers { friday saturday sunday }
  popularSeasons { peak shoulder offSeason bestWeather } season { asked months { month period } period multiplier unclassified }
  scaled { low high guestCount guestMultiplier seasonMultiplier clamped } source dataYear }
  covered reason asked coveredRegions asOf note sourceUrl`;

describe('authored regional data', () => {
  it('covers every US state and DC, at least 40 cities and the destination countries, consistently', () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATES.map((s) => s.usps)).size).toBe(51);
    expect(US_CITIES.length).toBeGreaterThanOrEqual(40);
    for (const country of ['mexico', 'italy', 'costa-rica', 'ireland', 'australia']) expect(REGIONS.some((r) => r.slug === country)).toBe(true);
    const slugs = REGIONS.map((r) => r.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const r of REGIONS) {
      expect(r.low, r.slug).toBeLessThan(r.high);
      expect(r.averageGuestCount, r.slug).toBeGreaterThan(0);
      if (r.parent) expect(slugs, r.slug).toContain(r.parent);
    }
    for (const [name, c] of Object.entries(CLIMATES)) {
      const months = [...c.peak, ...c.shoulder, ...c.offSeason];
      expect(new Set(months).size, name).toBe(months.length);
    }
  });
});

describe('GET /api/v1/regional-cost-ranges and regionalCostRange', () => {
  it('returns a calculator state by USPS code with every §2.6 field, the same on GraphQL', async () => {
    const body = await range('state=CA');
    expect(body).toMatchObject({
      covered: true,
      reason: null,
      covered_regions: null,
      asked: 'CA',
      as_of: 2025,
      source_url: 'http://api.test/wedding-costs/california',
    });
    expect(body.data).toEqual({
      slug: 'california',
      name: 'California',
      type: 'state',
      coverage: 'calculator',
      matched_on: 'state',
      multipliers_from: null,
      range: { low: 38000, high: 72000, display: '$38,000–$72,000', note: expect.stringContaining('120 guests') },
      average_guest_count: 120,
      seasonal_multipliers: { peak: 1.2, shoulder: 1, off_season: 0.82 },
      day_of_week_multipliers: { friday: 0.88, saturday: 1, sunday: 0.85 },
      popular_seasons: {
        peak: ['May', 'June', 'September', 'October'],
        shoulder: ['April', 'July', 'August', 'November'],
        off_season: ['December', 'January', 'February', 'March'],
        best_weather: expect.any(String),
      },
      season: null,
      scaled: null,
      source: expect.any(String),
      data_year: 2025,
    });
    const gql = await t.graphql(`{ regionalCostRange(state: "CA") { ${SELECTION} } }`);
    const { request_id: _id, ...rest } = body;
    expect(gql.body.data.regionalCostRange).toEqual(withEnumNames(camelKeys(rest), ['type', 'coverage', 'matchedOn', 'period']));
  });

  it('finds regions by slug, state name or code, country, colloquial alias, city name or slug, and says how', async () => {
    const cases: Array<[string, string, string]> = [
      ['slug=napa', 'napa', 'slug'],
      ['slug=NEW-YORK-CITY', 'new-york-city', 'slug'],
      ['state=Texas', 'texas', 'state'],
      ['state=tx', 'texas', 'state'],
      ['state=new%20york', 'new-york', 'state'],
      ['state=Italy', 'italy', 'country'],
      ['state=costa%20rica', 'costa-rica', 'country'],
      ['state=Tuscany', 'tuscany', 'state'],
      ['state=SoCal', 'california', 'alias'],
      ['state=Hill%20Country', 'texas', 'alias'],
      ['state=Upstate%20New%20York', 'new-york', 'alias'],
      ['city=Nashville', 'nashville', 'city'],
      ['city=st-augustine', 'st-augustine', 'city'],
      ['city=St.%20Augustine', 'st-augustine', 'city'],
      ['city=NYC', 'new-york-city', 'alias'],
      ['city=Napa&state=Texas', 'napa', 'city'],
    ];
    for (const [query, slug, matchedOn] of cases) {
      const body = await range(query);
      expect({ slug: body.data?.slug, matched_on: body.data?.matched_on }, query).toEqual({ slug, matched_on: matchedOn });
    }
  });

  it('gives cities their parent state multipliers, and insights-only regions the national fallback', async () => {
    const tulum = (await range('city=Tulum')).data;
    const mexico = (await range('state=Mexico')).data;
    expect(tulum).toMatchObject({ coverage: 'parent_state', multipliers_from: 'mexico', type: 'city' });
    expect(tulum.seasonal_multipliers).toEqual(mexico.seasonal_multipliers);
    expect(tulum.day_of_week_multipliers).toEqual(mexico.day_of_week_multipliers);
    const fallback = {
      peak: NATIONAL_FALLBACK.seasonal.peak,
      shoulder: NATIONAL_FALLBACK.seasonal.shoulder,
      off_season: NATIONAL_FALLBACK.seasonal.offSeason,
    };
    for (const query of ['state=Alaska', 'city=Anchorage', 'city=Jackson%20Hole']) {
      const data = (await range(query)).data;
      expect(data, query).toMatchObject({ coverage: 'insights_only', multipliers_from: null, seasonal_multipliers: fallback });
    }
  });

  it('answers an unknown region with covered: false and the covered regions, never a neighbour', async () => {
    for (const [query, asked] of [
      ['state=Atlantis', 'Atlantis'],
      ['city=Springfield&state=Illinois', 'Springfield'],
      ['slug=texas-hill-country', 'texas-hill-country'],
    ]) {
      const body = await range(query);
      expect(body, query).toMatchObject({ data: null, covered: false, asked, reason: expect.stringContaining(asked), as_of: 2025 });
      expect(body.covered_regions).toEqual(REGIONS.map((r) => r.slug).sort());
    }
  });

  it('classifies seasons by the region’s month lists (majority, ties to the higher multiplier, unclassified → shoulder)', async () => {
    // California: peak May Jun Sep Oct; shoulder Apr Jul Aug Nov; off Dec–Mar; multipliers 1.2 / 1.0 / 0.82.
    const cases: Array<[string, string, string, number, boolean]> = [
      ['state=CA&season=summer', 'summer', 'shoulder', 1, false], // Jun peak, Jul + Aug shoulder
      ['state=CA&season=fall', 'fall', 'peak', 1.2, false], // Sep + Oct peak, Nov shoulder
      ['state=CA&season=Autumn', 'autumn', 'peak', 1.2, false],
      ['state=CA&season=spring', 'spring', 'peak', 1.2, false], // Mar off, Apr shoulder, May peak: tie → higher
      ['state=CA&season=03', '03', 'offSeason', 0.82, false],
      ['state=CA&season=10', '10', 'peak', 1.2, false],
      ['state=CA&season=December', 'december', 'offSeason', 0.82, false],
      ['state=AZ&season=september', 'september', 'shoulder', 1, true], // desert lists leave September out
      ['state=Alaska&season=winter', 'winter', 'shoulder', 1, true], // no winter month listed; national fallback
      ['state=Australia&season=summer', 'summer', 'shoulder', 1, false], // southern: Dec shoulder, Jan off, Feb shoulder
      ['state=Australia&season=spring', 'spring', 'peak', 1.15, false], // southern: Sep, Oct, Nov
    ];
    for (const [query, asked, period, multiplier, unclassified] of cases) {
      const { season } = (await range(query)).data;
      expect({ asked: season.asked, period: season.period, multiplier: season.multiplier, unclassified: season.unclassified }, query).toEqual({
        asked,
        period,
        multiplier,
        unclassified,
      });
    }
    const { season } = (await range('state=CA&season=summer')).data;
    expect(season.months).toEqual([
      { month: 'June', period: 'peak' },
      { month: 'July', period: 'shoulder' },
      { month: 'August', period: 'shoulder' },
    ]);
    const winter = (await range('state=Alaska&season=winter')).data.season;
    expect(winter.months.map((m: { period: string }) => m.period)).toEqual(['unclassified', 'unclassified', 'unclassified']);
    const aus = (await range('state=Australia&season=summer')).data.season;
    expect(aus.months.map((m: { month: string }) => m.month)).toEqual(['December', 'January', 'February']);
  });

  it('scales the range by guests (0.35 + 0.65 × guests / average, clamped to 0.5–2.5) and season, rounded to 100', async () => {
    // California 38000–72000 for 120 guests.
    const cases: Array<[string, object]> = [
      // 60 guests: 0.35 + 0.65 × 0.5 = 0.675 → 25650 → 25700, 48600.
      ['guests=60', { low: 25700, high: 48600, guest_count: 60, guest_multiplier: 0.675, season_multiplier: 1, clamped: false }],
      // with fall (1.2): 0.675 × 1.2 = 0.81 → 30780 → 30800, 58320 → 58300.
      ['guests=60&season=fall', { low: 30800, high: 58300, guest_count: 60, guest_multiplier: 0.675, season_multiplier: 1.2, clamped: false }],
      // season alone: guest multiplier 1, no guest count.
      ['season=03', { low: 31200, high: 59000, guest_count: null, guest_multiplier: 1, season_multiplier: 0.82, clamped: false }],
      // 28 guests: 0.501667 → 0.5017 (just inside); 27 guests: 0.49625 → clamped to 0.5.
      ['guests=28', { low: 19100, high: 36100, guest_count: 28, guest_multiplier: 0.5017, season_multiplier: 1, clamped: false }],
      ['guests=27', { low: 19000, high: 36000, guest_count: 27, guest_multiplier: 0.5, season_multiplier: 1, clamped: true }],
      ['guests=1', { low: 19000, high: 36000, guest_count: 1, guest_multiplier: 0.5, season_multiplier: 1, clamped: true }],
      // 396 guests: 2.495 (inside); 397: 2.50042 → clamped to 2.5; 2000 likewise.
      ['guests=396', { low: 94800, high: 179600, guest_count: 396, guest_multiplier: 2.495, season_multiplier: 1, clamped: false }],
      ['guests=397', { low: 95000, high: 180000, guest_count: 397, guest_multiplier: 2.5, season_multiplier: 1, clamped: true }],
      ['guests=2000', { low: 95000, high: 180000, guest_count: 2000, guest_multiplier: 2.5, season_multiplier: 1, clamped: true }],
    ];
    for (const [query, scaled] of cases) expect((await range(`state=California&${query}`)).data.scaled, query).toEqual(scaled);
    const gql = await t.graphql(
      '{ regionalCostRange(slug: "california", guests: 60, season: "fall") { data { scaled { low high guestMultiplier clamped } } } }',
    );
    expect(gql.body.data.regionalCostRange.data.scaled).toEqual({ low: 30800, high: 58300, guestMultiplier: 0.675, clamped: false });
  });

  it('refuses a missing region, an unparseable season and out-of-range guests with their codes, on both surfaces', async () => {
    const cases: Array<[string, string, string, string, string]> = [
      ['', 'region_required', 'state', '', 'state'],
      ['season=summer&guests=10', 'region_required', 'state', 'season: "summer", guests: 10', 'state'],
      ['state=CA&season=monsoon', 'invalid_season_name', 'season', 'state: "CA", season: "monsoon"', 'season'],
      ['state=CA&season=13', 'invalid_season_name', 'season', 'state: "CA", season: "13"', 'season'],
      ['state=CA&season=00', 'invalid_season_name', 'season', 'state: "CA", season: "00"', 'season'],
      ['state=CA&season=', 'invalid_season_name', 'season', 'state: "CA", season: ""', 'season'],
      ['state=CA&guests=0', 'invalid_guests', 'guests', 'state: "CA", guests: 0', 'guests'],
      ['state=CA&guests=2001', 'invalid_guests', 'guests', 'state: "CA", guests: 2001', 'guests'],
    ];
    for (const [query, code, param, args, argument] of cases) {
      const rest = await t.rest(`/api/v1/regional-cost-ranges${query ? `?${query}` : ''}`);
      expectRestError(rest, 400, code, param);
      expect(rest.body.error.type).toBe('validation_error');
      expectGraphQLError(await t.graphql(`{ regionalCostRange${args ? `(${args})` : ''} { covered } }`), code, argument);
    }
    expectRestError(await t.rest('/api/v1/regional-cost-ranges?state='), 400, 'invalid_parameters', 'state');
    // Not a whole number at all: the same code and range as one out of range, though GraphQL's type refuses it first.
    for (const guests of ['many', '1.5', '1e3']) {
      const rest = await t.rest(`/api/v1/regional-cost-ranges?state=CA&guests=${guests}`);
      expectRestError(rest, 400, 'invalid_guests', 'guests');
      expect(rest.body.error.message).toBe('guests must be an integer from 1 to 2000.');
    }
    expectGraphQLError(await t.graphql('{ regionalCostRange(state: "CA", guests: 1.5) { covered } }'), 'invalid_guests', 'guests');
    for (const ok of ['guests=1', 'guests=2000', 'season=01', 'season=12', 'season=1', 'season=sep']) {
      expect((await t.rest(`/api/v1/regional-cost-ranges?state=CA&${ok}`)).status, ok).toBe(200);
    }
  });
});
