// Venue discovery through REST (GET /api/v1/venues): near, near_city, radius_km, bbox, q, sort and facets. Every
// rule at its bound and just past it, every rule between parameters, and what the answers hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectRestError, type TestApp, type TestResponse } from '../support/app.js';
import { EARTH_RADIUS_KM } from '../../src/venues/venues.queries.js';

const TODAY = new Date('2026-06-15T12:00:00Z');
const ASHEVILLE: [number, number] = [35.6, -82.55];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

interface Item {
  slug: string;
  latitude: number | null;
  longitude: number | null;
  capacity_max: number | null;
  amenities: string[];
  distance_km?: number;
  pricing: { currency: string; starting_total: { amount: number } | null };
}

const venues = (query: string, app = t) => app.rest(`/api/v1/venues?${query}`);

async function ok(query: string, app = t): Promise<TestResponse> {
  const res = await venues(query, app);
  expect(res.status, `${query}: ${res.text.slice(0, 500)}`).toBe(200);
  return res;
}

/** Every venue of a search, page by page through next_cursor (limit 100). */
async function allPages(query: string, app = t): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let total = -1;
  for (let page = 0; page < 50; page++) {
    const res = await ok(`${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, app);
    items.push(...res.body.data);
    total = res.body.pagination.total_count;
    cursor = res.body.pagination.next_cursor;
    if (!cursor) break;
  }
  expect(new Set(items.map((v) => v.slug)).size, query).toBe(items.length);
  expect(items, query).toHaveLength(total);
  return { items, total };
}

/** Great-circle kilometres on the sphere the API uses (haversine). */
function haversine([lat1, lng1]: [number, number], [lat2, lng2]: [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A query string with `changes` set (undefined: removed). */
function withParams(query: string, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams(query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) params.delete(key);
    else params.set(key, value);
  }
  return params.toString();
}

describe('refusals: each rule at its bound and just past it', () => {
  it('accepts the bounds of near, radius_km and q', async () => {
    for (const query of [
      'near=90,0',
      'near=-90,0',
      'near=0,180',
      'near=0,-180',
      'near=-90,-180',
      'near=35.6,-82.55&radius_km=1',
      'near=35.6,-82.55&radius_km=500',
      'near_city=asheville&radius_km=1',
      'near_city=asheville&radius_km=500',
      'q=ab',
      `q=${'a'.repeat(100)}`,
      `q=${encodeURIComponent(' ab ')}`,
      `q=${encodeURIComponent(`${'b'.repeat(49)} ${'c'.repeat(50)}`)}`,
      'bbox=-180,-90,180,90',
    ]) {
      await ok(query);
    }
  });

  it('refuses each parameter out of its bounds or malformed, naming it and stating the rule', async () => {
    const cases: Array<[query: string, param: string, rule: string]> = [
      ['near=90.0001,0', 'near', 'latitude (first number) must be -90 to 90'],
      ['near=-90.0001,0', 'near', 'latitude (first number) must be -90 to 90'],
      ['near=0,180.5', 'near', 'longitude (second number) must be -180 to 180'],
      ['near=0,-180.5', 'near', 'longitude (second number) must be -180 to 180'],
      ['near=1,2,3', 'near', 'must be LAT,LNG'],
      ['near=1', 'near', 'must be LAT,LNG'],
      ['near=north,east', 'near', 'near'],
      ['near=35.6,-82.55&radius_km=0.99', 'radius_km', 'must be 1 to 500'],
      ['near=35.6,-82.55&radius_km=500.01', 'radius_km', 'must be 1 to 500'],
      ['near_city=asheville&radius_km=0', 'radius_km', 'must be 1 to 500'],
      ['near_city=asheville&radius_km=far', 'radius_km', 'radius_km'],
      ['q=a', 'q', 'must be 2 to 100 characters'],
      [`q=${'a'.repeat(101)}`, 'q', 'must be 2 to 100 characters'],
      ['q=!!', 'q', 'must contain a letter or a digit'],
      [`q=${encodeURIComponent(' a ')}`, 'q', 'must be 2 to 100 characters'],
      ['bbox=1,2,3', 'bbox', 'must be minLng,minLat,maxLng,maxLat'],
      ['bbox=1,2,3,4,5', 'bbox', 'must be minLng,minLat,maxLng,maxLat'],
      ['bbox=0,-91,1,1', 'bbox', 'minLat (second number) must be -90 to 90'],
      ['bbox=-180.5,0,1,1', 'bbox', 'minLng (first number) must be -180 to 180'],
      ['near_city=', 'near_city', 'near_city'],
      ['sort=nearest', 'sort', 'must be one of recommended, distance, relevance, price_asc, price_desc, capacity_desc'],
      ['facets=colour', 'facets', 'venue_type, amenities, state, price_band, capacity_band'],
      ['facets=state,colour', 'facets', 'venue_type, amenities, state, price_band, capacity_band'],
    ];
    for (const [query, param, rule] of cases) {
      const res = await venues(query);
      expectRestError(res, 400, 'invalid_parameters', param);
      expect(res.body.error.message, query).toContain(param);
      expect(res.body.error.message, query).toContain(rule);
    }
  });

  it('refuses the combinations the rules between parameters forbid, naming the parameter at fault', async () => {
    const cases: Array<[query: string, param: string, rule: string]> = [
      ['near=35.6,-82.55&near_city=asheville', 'near_city', 'near_city cannot be combined with near'],
      ['bbox=-83.2,35.2,-82.1,36&near=35.6,-82.55', 'bbox', 'bbox cannot be combined with near or near_city'],
      ['bbox=-83.2,35.2,-82.1,36&near_city=asheville', 'bbox', 'bbox cannot be combined with near or near_city'],
      ['radius_km=10', 'radius_km', 'radius_km needs near or near_city'],
      ['radius_km=10&bbox=-83.2,35.2,-82.1,36', 'radius_km', 'radius_km needs near or near_city'],
      ['sort=distance', 'sort', 'distance needs near or near_city'],
      ['sort=distance&bbox=-83.2,35.2,-82.1,36', 'sort', 'distance needs near or near_city'],
      ['sort=distance&q=barn', 'sort', 'distance needs near or near_city'],
      ['sort=relevance', 'sort', 'relevance needs q'],
      ['sort=relevance&near_city=asheville', 'sort', 'relevance needs q'],
    ];
    for (const [query, param, rule] of cases) {
      const res = await venues(query);
      expectRestError(res, 400, 'invalid_parameters', param);
      expect(res.body.error.message, query).toContain(rule);
    }
    // Allowed together: each rule's other side.
    for (const query of ['near_city=asheville&sort=distance', 'near=35.6,-82.55&radius_km=20&sort=distance', 'q=barn&sort=relevance'])
      await ok(query);
  });

  it('refuses an unknown near_city with up to three close names', async () => {
    const res = await venues('near_city=Ashvile');
    expectRestError(res, 400, 'invalid_parameters', 'near_city');
    expect(res.body.error.message).toContain('near_city is not a city of the catalogue');
    expect(res.body.error.message).toContain('Asheville');
    const close = res.body.error.message.split('close names: ')[1];
    expect(close.replace(/\.$/, '').split(', ').length).toBeLessThanOrEqual(3);
  });
});

describe('near and near_city', () => {
  it('finds a city by slug or by name in any case, with the same answer', async () => {
    for (const spellings of [
      ['asheville', 'Asheville', 'ASHEVILLE', 'aShEvIlLe'],
      ['big-bear-lake', 'Big Bear Lake', 'big bear lake', 'BIG BEAR LAKE'],
    ]) {
      const answers = await Promise.all(spellings.map((city) => ok(`near_city=${encodeURIComponent(city)}&sort=distance&limit=100`)));
      const [first] = answers;
      expect(first.body.data.length).toBeGreaterThan(0);
      for (const res of answers) {
        expect(res.body.data).toEqual(first.body.data);
        expect(res.body.pagination.total_count).toBe(first.body.pagination.total_count);
      }
    }
  });

  it('gives each item distance_km to one decimal, exact, within radius_km; no venue within it is left out', async () => {
    const published = await t.db.prisma.venue.findMany({ where: { published: true }, select: { slug: true, latitude: true, longitude: true } });
    for (const radius of [1, 25, 50, 180, 500]) {
      const { items, total } = await allPages(`near=${ASHEVILLE.join(',')}${radius === 50 ? '' : `&radius_km=${radius}`}`);
      const expected = published
        .filter((v) => v.latitude !== null && v.longitude !== null && haversine(ASHEVILLE, [v.latitude, v.longitude]) <= radius)
        .map((v) => v.slug)
        .sort();
      expect(items.map((v) => v.slug).sort(), `radius_km=${radius}`).toEqual(expected);
      expect(total).toBe(expected.length);
      for (const v of items) {
        expect(typeof v.distance_km).toBe('number');
        expect(Math.round(v.distance_km! * 10) / 10).toBe(v.distance_km);
        expect(v.distance_km!).toBeLessThanOrEqual(radius);
        expect(Math.abs(v.distance_km! - haversine(ASHEVILLE, [v.latitude!, v.longitude!]))).toBeLessThanOrEqual(0.05 + 1e-9);
      }
    }
    // The default radius is 50 km and the near_city point is the city's venues' centre.
    const byCity = await allPages('near_city=asheville');
    expect(byCity.total).toBeGreaterThan(0);
    for (const v of byCity.items) expect(v.distance_km!).toBeLessThanOrEqual(50);
    const wider = await allPages('near_city=asheville&radius_km=500');
    expect(wider.total).toBeGreaterThan(byCity.total);
    for (const v of wider.items) expect(v.distance_km!).toBeLessThanOrEqual(500);
  });

  it('sort=distance is non-decreasing in distance_km across pages', async () => {
    for (const query of [
      'near_city=asheville&radius_km=500&sort=distance',
      `near=${ASHEVILLE.join(',')}&radius_km=400&sort=distance&amenities=pool`,
    ]) {
      const { items } = await allPages(query);
      expect(items.length).toBeGreaterThan(20);
      const distances = items.map((v) => v.distance_km!);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      // Page boundaries included: pages of 7 give the same sequence as pages of 100.
      const small: Item[] = [];
      let cursor: string | null = null;
      do {
        const res = await ok(`${query}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        small.push(...res.body.data);
        cursor = res.body.pagination.next_cursor;
      } while (cursor && small.length < 70);
      expect(small.map((v) => v.slug)).toEqual(items.slice(0, small.length).map((v) => v.slug));
    }
  });

  it('bbox keeps the venues inside the box, without distance_km', async () => {
    const box = [-84, 35, -82, 36.5];
    const { items, total } = await allPages(`bbox=${box.join(',')}`);
    expect(total).toBeGreaterThan(0);
    for (const v of items) {
      expect(v.longitude!).toBeGreaterThanOrEqual(box[0]);
      expect(v.latitude!).toBeGreaterThanOrEqual(box[1]);
      expect(v.longitude!).toBeLessThanOrEqual(box[2]);
      expect(v.latitude!).toBeLessThanOrEqual(box[3]);
      expect(v).not.toHaveProperty('distance_km');
    }
    const expected = await t.db.prisma.venue.count({
      where: { published: true, longitude: { gte: box[0], lte: box[2] }, latitude: { gte: box[1], lte: box[3] } },
    });
    expect(total).toBe(expected);
  });

  it('leaves a venue without coordinates out of every place search, the whole globe included', async () => {
    const published = await t.db.prisma.venue.findMany({ where: { published: true }, select: { slug: true, latitude: true, longitude: true } });
    const located = published.filter((v) => v.latitude !== null && v.longitude !== null).map((v) => v.slug);
    // The catalogue has such venues, so the searches below can leave one out wrongly.
    expect(located.length).toBeLessThan(published.length);
    const globe = await allPages('bbox=-180,-90,180,90');
    expect(globe.items.map((v) => v.slug).sort()).toEqual(located.sort());
    const around = await allPages(`near=${ASHEVILLE.join(',')}&radius_km=500`);
    for (const v of around.items) expect(v.latitude !== null && v.longitude !== null).toBe(true);
  });
});

describe('q', () => {
  it('matches every word, and one letter slipped in a word of five letters or more', async () => {
    const exact = await allPages('q=tuscany');
    expect(exact.total).toBeGreaterThan(0);
    const typo = await allPages('q=tuscanny');
    expect(typo.items.map((v) => v.slug)).toEqual(expect.arrayContaining(exact.items.map((v) => v.slug)));
    const both = await allPages('q=tuscany%20pool');
    expect(both.total).toBeGreaterThan(0);
    expect(both.total).toBeLessThan(exact.total);
    for (const v of both.items) expect(exact.items.map((e) => e.slug)).toContain(v.slug);
    // Relevance orders the same set.
    const ranked = await allPages('q=tuscany&sort=relevance');
    expect(ranked.items.map((v) => v.slug).sort()).toEqual(exact.items.map((v) => v.slug).sort());
  });
});

describe('sort', () => {
  it('price_asc and price_desc order by the starting total in USD at the day’s rate, unpriced last; capacity_desc by capacity', async () => {
    const stored = await t.db.prisma.venue.findMany({ where: { published: true }, select: { slug: true, currency: true, startingTotal: true } });
    const eurUsd = await t.db.prisma.exchangeRate.findFirstOrThrow({
      where: { base: 'EUR', quote: 'USD', rateDate: { lte: TODAY } },
      orderBy: { rateDate: 'desc' },
    });
    // AUD venues store USD (venue-pricing.ts STORED_AS); EUR venues store euros.
    const usd = new Map(
      stored.map((v) => [v.slug, v.startingTotal === null ? null : v.currency === 'EUR' ? v.startingTotal * eurUsd.rate : v.startingTotal]),
    );
    const bySlug = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    for (const descending of [false, true]) {
      const { items } = await allPages(`sort=${descending ? 'price_desc' : 'price_asc'}`);
      const expected = [...usd.keys()].sort((a, b) => {
        const [ka, kb] = [usd.get(a)!, usd.get(b)!];
        if (ka === null || kb === null) return ka === kb ? bySlug(a, b) : ka === null ? 1 : -1;
        return (descending ? kb - ka : ka - kb) || bySlug(a, b);
      });
      expect(items.map((v) => v.slug)).toEqual(expected);
      const firstUnpriced = items.findIndex((v) => v.pricing.starting_total === null);
      expect(firstUnpriced).toBeGreaterThan(0);
      expect(items.slice(firstUnpriced).every((v) => v.pricing.starting_total === null)).toBe(true);
      // Within one currency the shown amounts follow the order too.
      for (const currency of ['USD', 'EUR', 'AUD']) {
        const amounts = items.filter((v) => v.pricing.currency === currency && v.pricing.starting_total).map((v) => v.pricing.starting_total!.amount);
        expect(amounts.length).toBeGreaterThan(0);
        expect(amounts).toEqual([...amounts].sort((a, b) => (descending ? b - a : a - b)));
      }
    }
    const { items } = await allPages('sort=capacity_desc');
    const capacities = items.map((v) => v.capacity_max ?? -1);
    expect(capacities).toEqual([...capacities].sort((a, b) => b - a));
    const firstNull = items.findIndex((v) => v.capacity_max === null);
    if (firstNull >= 0) expect(items.slice(firstNull).every((v) => v.capacity_max === null)).toBe(true);
    // Sorted with other filters: the same set as the recommended order.
    const priced = await allPages('state=texas&sort=price_asc');
    const plain = await allPages('state=texas');
    expect(priced.items.map((v) => v.slug).sort()).toEqual(plain.items.map((v) => v.slug));
  });

  it('price order on a day without a EUR→USD rate puts the euro venues with the unpriced, in slug order', async () => {
    // The seeded rates start on 2025-01-01: a day before has none, so a stored euro amount has no USD key.
    const before = await createTestApp({ database: t.db, now: () => new Date('2024-06-15T12:00:00Z') });
    try {
      const stored = await t.db.prisma.venue.findMany({ where: { published: true }, select: { slug: true, currency: true, startingTotal: true } });
      // AUD venues store USD (venue-pricing.ts STORED_AS), so they keep their key.
      const usd = new Map(stored.map((v) => [v.slug, v.startingTotal === null || v.currency === 'EUR' ? null : v.startingTotal]));
      expect(stored.some((v) => v.currency === 'EUR' && v.startingTotal !== null)).toBe(true);
      const bySlug = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      for (const descending of [false, true]) {
        const { items } = await allPages(`sort=${descending ? 'price_desc' : 'price_asc'}`, before);
        const expected = [...usd.keys()].sort((a, b) => {
          const [ka, kb] = [usd.get(a)!, usd.get(b)!];
          if (ka === null || kb === null) return ka === kb ? bySlug(a, b) : ka === null ? 1 : -1;
          return (descending ? kb - ka : ka - kb) || bySlug(a, b);
        });
        expect(items.map((v) => v.slug)).toEqual(expected);
      }
    } finally {
      await before.close();
    }
  });
  it('refuses a cursor of one order with another order (invalid_cursor) and continues it with its own', async () => {
    const pairs: Array<[string, string]> = [
      ['sort=price_asc', 'sort=price_desc'],
      ['sort=price_asc', 'sort=capacity_desc'],
      ['sort=capacity_desc', 'sort=recommended'],
      ['sort=recommended', 'sort=price_asc'],
      ['state=texas', 'state=texas&sort=capacity_desc'],
      ['near_city=asheville&radius_km=300&sort=distance', 'near_city=asheville&radius_km=300'],
      ['near_city=asheville&radius_km=300', 'near_city=asheville&radius_km=300&sort=distance'],
      ['q=barn&sort=relevance', 'q=barn'],
    ];
    for (const [from, to] of pairs) {
      const first = await ok(`${from}&limit=5`);
      const cursor = first.body.pagination.next_cursor;
      expect(cursor, from).toEqual(expect.any(String));
      expectRestError(await venues(`${to}&limit=5&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', 'cursor');
      const next = await ok(`${from}&limit=5&cursor=${encodeURIComponent(cursor)}`);
      const seen = new Set(first.body.data.map((v: Item) => v.slug));
      for (const v of next.body.data) expect(seen.has(v.slug)).toBe(false);
    }
  });
});

describe('answers without the new parameters, and facets', () => {
  it('a search without the new parameters has no distance_km and no facets keys', async () => {
    for (const query of ['limit=5', 'state=texas&limit=5', 'q=barn&limit=5', 'bbox=-84,35,-82,36.5&limit=5', 'sort=price_asc&limit=5']) {
      const res = await ok(query);
      expect(Object.keys(res.body).sort(), query).toEqual(['data', 'pagination', 'request_id']);
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const v of res.body.data) expect(v, query).not.toHaveProperty('distance_km');
    }
    const near = await ok('near_city=asheville&limit=5');
    expect(near.body).not.toHaveProperty('facets');
    for (const v of near.body.data) expect(v).toHaveProperty('distance_km');
  });

  it('has facets only with the names asked for, in any order', async () => {
    const cases: Array<[string, string[]]> = [
      ['state', ['state']],
      ['capacity_band,amenities', ['amenities', 'capacity_band']],
      ['price_band', ['price_band']],
      ['state,venue_type,price_band,capacity_band,amenities', ['amenities', 'capacity_band', 'price_band', 'state', 'venue_type']],
    ];
    for (const base of ['', 'q=barn&', 'near_city=asheville&radius_km=300&', 'state=texas&']) {
      for (const [facets, keys] of cases) {
        const res = await ok(`${base}facets=${facets}&limit=3`);
        expect(Object.keys(res.body.facets).sort(), `${base}facets=${facets}`).toEqual(keys);
        for (const key of keys) expect(res.body.facets[key].length, `${base}facets=${facets}: ${key}`).toBeGreaterThan(0);
      }
    }
  });

  it('counts each facet value as the search with that facet’s own filter set to it', async () => {
    const ALL = 'facets=state,venue_type,amenities,price_band,capacity_band';
    for (const base of ['amenities=pool', 'near_city=asheville&radius_km=400', 'q=barn', 'state=texas&capacity_min=10']) {
      const res = await ok(`${base}&${ALL}&limit=1`);
      const f = res.body.facets;
      const total = res.body.pagination.total_count;
      const count = async (changes: Record<string, string | undefined>) =>
        (await ok(withParams(`${base}&limit=1`, changes))).body.pagination.total_count as number;
      // Every venue has one state and one sleeping capacity: with the own filter unset, the counts add up.
      if (!base.includes('state='))
        expect(
          f.state.reduce((n: number, s: { count: number }) => n + s.count, 0),
          base,
        ).toBe(total);
      if (!base.includes('capacity_'))
        expect(
          f.capacity_band.reduce((n: number, s: { count: number }) => n + s.count, 0),
          base,
        ).toBe(total);
      for (const s of f.state.slice(0, 3)) expect(await count({ state: s.value }), `${base}: state ${s.value}`).toBe(s.count);
      for (const a of f.amenities.slice(0, 3)) expect(await count({ amenities: a.value }), `${base}: amenities ${a.value}`).toBe(a.count);
      for (const b of f.capacity_band.slice(0, 3)) {
        const changes = { capacity_min: String(b.min), capacity_max: b.max === null ? undefined : String(b.max) };
        expect(await count(changes), `${base}: capacity ${b.min}-${b.max}`).toBe(b.count);
      }
      // Price bounds compare each venue's own currency: a band's venues in every currency together.
      const bands = new Map<string, { min: number; max: number | null; count: number }>();
      for (const b of f.price_band) {
        const key = `${b.min}-${b.max}`;
        bands.set(key, { min: b.min, max: b.max, count: (bands.get(key)?.count ?? 0) + b.count });
      }
      for (const b of [...bands.values()].slice(0, 3)) {
        const changes = { price_min: String(b.min), price_max: b.max === null ? undefined : String(b.max) };
        expect(await count(changes), `${base}: price ${b.min}-${b.max}`).toBe(b.count);
      }
    }
  });

  // venue_type filters by a substring of the property type, so its facet's values must count what that filter finds.
  it('counts each venue_type value as the search with venue_type set to it', async () => {
    for (const base of ['limit=1', 'q=barn&limit=1', 'amenities=pool&limit=1']) {
      const { facets, pagination } = (await ok(`${base}&facets=venue_type`)).body;
      expect(facets.venue_type.length).toBeGreaterThan(0);
      // venue_type matches a substring of the property type, so a barndominium counts under barn and under
      // barndominium: the counts may add up past the total, but none exceeds it.
      for (const v of facets.venue_type) expect(v.count).toBeLessThanOrEqual(pagination.total_count);
      for (const v of facets.venue_type) {
        const res = await ok(withParams(base, { venue_type: v.value }));
        expect(res.body.pagination.total_count, `${base}: venue_type=${v.value}`).toBe(v.count);
      }
    }
  });

  it('counts a facet named twice once', async () => {
    const once = await ok('state=texas&facets=state,price_band&limit=1');
    const twice = await ok('state=texas&facets=state,price_band,state,price_band&limit=1');
    expect(twice.body.facets).toEqual(once.body.facets);
    const values = once.body.facets.state.map((s: { value: string }) => s.value);
    expect(new Set(values).size).toBe(values.length);
  });
});
