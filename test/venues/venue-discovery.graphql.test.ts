// Venue discovery through GraphQL `venues(...)`: the same rules and answers as REST (venue-discovery.rest.test.ts),
// with GraphQL's names: camelCase arguments, the VenueSort and VenueFacet enums, distanceKm and facets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectGraphQLError, type TestApp, type TestResponse } from '../support/app.js';
import { enumName } from '../../src/graphql/closed-set.js';
import { VENUE_FACETS, VENUE_SORTS } from '../../src/venues/venues.inputs.js';
import { FACETS } from '../../src/venues/venues.rest.js';

const TODAY = new Date('2026-06-15T12:00:00Z');
const FACETS_SELECTION = FACETS;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

const SEARCH = /* GraphQL */ `
  query search($near: [Float!], $nearCity: String, $radiusKm: Float, $bbox: [Float!], $q: String, $sort: VenueSort,
    $facets: [VenueFacet!], $state: String, $first: Int, $after: String) {
    venues(near: $near, nearCity: $nearCity, radiusKm: $radiusKm, bbox: $bbox, q: $q, sort: $sort, facets: $facets,
      state: $state, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor distanceKm node { slug distanceKm } }
      nodes { slug distanceKm capacityMax pricing { currency startingTotal { amount } } }
      ${FACETS_SELECTION}
    }
  }`;

async function search(variables: Record<string, unknown>): Promise<TestResponse> {
  return t.graphql(SEARCH, variables);
}

async function ok(variables: Record<string, unknown>) {
  const res = await search(variables);
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  expect(res.body.errors, `${JSON.stringify(variables)}: ${res.text.slice(0, 500)}`).toBeUndefined();
  return res.body.data.venues;
}

describe('the schema', () => {
  it('has the VenueSort and VenueFacet enums in GraphQL names, and the new fields', async () => {
    const res = await t.graphql(`{
      sort: __type(name: "VenueSort") { kind enumValues { name } }
      facet: __type(name: "VenueFacet") { kind enumValues { name } }
      venue: __type(name: "Venue") { fields { name type { name } } }
      edge: __type(name: "VenueEdge") { fields { name type { name } } }
      connection: __type(name: "VenueConnection") { fields { name type { name kind } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    const { sort, facet, venue, edge, connection } = res.body.data;
    expect(sort.kind).toBe('ENUM');
    expect(sort.enumValues.map((v: { name: string }) => v.name).sort()).toEqual(VENUE_SORTS.map(enumName).sort());
    expect(facet.enumValues.map((v: { name: string }) => v.name).sort()).toEqual(VENUE_FACETS.map(enumName).sort());
    expect(VENUE_SORTS.map(enumName)).toEqual(['RECOMMENDED', 'DISTANCE', 'RELEVANCE', 'PRICE_ASC', 'PRICE_DESC', 'CAPACITY_DESC']);
    const field = (type: { fields: Array<{ name: string; type: { name: string } }> }, name: string) => type.fields.find((f) => f.name === name);
    expect(field(venue, 'distanceKm')?.type.name).toBe('Float');
    expect(field(edge, 'distanceKm')?.type.name).toBe('Float');
    expect(field(connection, 'facets')?.type).toMatchObject({ name: 'VenueFacets', kind: 'OBJECT' });
  });
});

describe('refusals', () => {
  it('accepts the bounds of near, radiusKm and q', async () => {
    for (const variables of [
      { near: [90, 0] },
      { near: [-90, 0] },
      { near: [0, 180] },
      { near: [0, -180] },
      { near: [35.6, -82.55], radiusKm: 1 },
      { near: [35.6, -82.55], radiusKm: 500 },
      { nearCity: 'asheville', radiusKm: 500 },
      { q: 'ab' },
      { q: 'a'.repeat(100) },
      { q: ' ab ' },
      { bbox: [-180, -90, 180, 90] },
    ]) {
      await ok({ ...variables, first: 1 });
    }
  });

  it('refuses each argument out of its bounds or malformed in extensions, naming the GraphQL argument and stating the rule', async () => {
    const cases: Array<[variables: Record<string, unknown>, param: string, rule: string]> = [
      [{ near: [90.0001, 0] }, 'near', 'latitude (first number) must be -90 to 90'],
      [{ near: [-90.0001, 0] }, 'near', 'latitude (first number) must be -90 to 90'],
      [{ near: [0, 180.5] }, 'near', 'longitude (second number) must be -180 to 180'],
      [{ near: [0, -180.5] }, 'near', 'longitude (second number) must be -180 to 180'],
      [{ near: [1, 2, 3] }, 'near', 'must be LAT,LNG'],
      [{ near: [1] }, 'near', 'must be LAT,LNG'],
      [{ near: [35.6, -82.55], radiusKm: 0.99 }, 'radiusKm', 'must be 1 to 500'],
      [{ near: [35.6, -82.55], radiusKm: 500.01 }, 'radiusKm', 'must be 1 to 500'],
      [{ q: 'a' }, 'q', 'must be 2 to 100 characters'],
      [{ q: 'a'.repeat(101) }, 'q', 'must be 2 to 100 characters'],
      [{ q: '!!' }, 'q', 'must contain a letter or a digit'],
      [{ q: ' a ' }, 'q', 'must be 2 to 100 characters'],
      [{ bbox: [1, 2, 3] }, 'bbox', 'must be minLng,minLat,maxLng,maxLat'],
      [{ bbox: [0, -91, 1, 1] }, 'bbox', 'minLat (second number) must be -90 to 90'],
      [{ nearCity: '' }, 'nearCity', 'nearCity'],
    ];
    for (const [variables, param, rule] of cases) {
      const res = await search(variables);
      expectGraphQLError(res, 'invalid_parameters', param);
      expect(res.body.errors[0].extensions.status).toBe(400);
      expect(res.body.errors[0].message, JSON.stringify(variables)).toContain(param);
      expect(res.body.errors[0].message, JSON.stringify(variables)).toContain(rule);
      expect(res.body.data?.venues ?? null).toBeNull();
    }
  });

  it('refuses the combinations the rules between arguments forbid', async () => {
    const cases: Array<[variables: Record<string, unknown>, param: string, rule: string]> = [
      [{ near: [35.6, -82.55], nearCity: 'asheville' }, 'nearCity', 'nearCity cannot be combined with near'],
      [{ bbox: [-83.2, 35.2, -82.1, 36], near: [35.6, -82.55] }, 'bbox', 'bbox cannot be combined with near'],
      [{ bbox: [-83.2, 35.2, -82.1, 36], nearCity: 'asheville' }, 'bbox', 'bbox cannot be combined with near'],
      [{ radiusKm: 10 }, 'radiusKm', 'radiusKm needs near'],
      [{ sort: 'DISTANCE' }, 'sort', 'distance needs near'],
      [{ sort: 'DISTANCE', bbox: [-83.2, 35.2, -82.1, 36] }, 'sort', 'distance needs near'],
      [{ sort: 'RELEVANCE' }, 'sort', 'relevance needs q'],
      [{ sort: 'RELEVANCE', nearCity: 'asheville' }, 'sort', 'relevance needs q'],
    ];
    for (const [variables, param, rule] of cases) {
      const res = await search(variables);
      expectGraphQLError(res, 'invalid_parameters', param);
      expect(res.body.errors[0].message, JSON.stringify(variables)).toContain(rule);
    }
    for (const variables of [
      { nearCity: 'asheville', sort: 'DISTANCE' },
      { q: 'barn', sort: 'RELEVANCE' },
    ])
      await ok({ ...variables, first: 1 });
  });

  it('refuses an unknown nearCity with close names, and enum values the enums lack', async () => {
    const res = await search({ nearCity: 'Ashvile' });
    expectGraphQLError(res, 'invalid_parameters', 'nearCity');
    expect(res.body.errors[0].message).toContain('nearCity is not a city of the catalogue');
    expect(res.body.errors[0].message).toContain('Asheville');
    // Unknown enum values fail GraphQL's own validation (HTTP 400), in the catalogue's terms.
    for (const [args, param] of [
      ['sort: NEAREST', 'sort'],
      ['sort: distance', 'sort'],
      ['facets: [COLOUR]', 'facets'],
      ['facets: [STATE, COLOUR]', 'facets'],
    ]) {
      const literal = await t.graphql(`{ venues(${args}) { totalCount } }`);
      expect(literal.status, literal.text).toBe(400);
      expectGraphQLError(literal, 'invalid_parameters', param);
    }
    // In a variable: the REST value is not the enum's name; the refusal names the variable and suggests the name.
    const variable = await search({ sort: 'price_asc' });
    expectGraphQLError(variable, 'invalid_parameters', 'sort');
    expect(variable.body.errors[0].message).toContain('PRICE_ASC');
    expectGraphQLError(await search({ facets: ['STATE', 'COLOUR'] }), 'invalid_parameters', 'facets');
  });
});

describe('answers', () => {
  it('gives distanceKm on edges and nodes with a point, as REST gives distance_km; null without one', async () => {
    const page = await ok({ nearCity: 'Asheville', radiusKm: 300, sort: 'DISTANCE', first: 50 });
    expect(page.nodes.length).toBeGreaterThan(5);
    const rest = await t.rest('/api/v1/venues?near_city=asheville&radius_km=300&sort=distance&limit=50');
    expect(page.nodes.map((n: { slug: string; distanceKm: number }) => [n.slug, n.distanceKm])).toEqual(
      rest.body.data.map((v: { slug: string; distance_km: number }) => [v.slug, v.distance_km]),
    );
    expect(page.totalCount).toBe(rest.body.pagination.total_count);
    expect(page.pageInfo.endCursor).toEqual(expect.any(String));
    for (const [i, edge] of page.edges.entries()) {
      expect(edge.node.slug).toBe(page.nodes[i].slug);
      expect(edge.distanceKm).toBe(page.nodes[i].distanceKm);
      expect(edge.node.distanceKm).toBe(edge.distanceKm);
      expect(Math.round(edge.distanceKm * 10) / 10).toBe(edge.distanceKm);
      expect(edge.distanceKm).toBeLessThanOrEqual(300);
    }
    const distances = page.nodes.map((n: { distanceKm: number }) => n.distanceKm);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const variables of [{}, { q: 'barn' }, { bbox: [-84, 35, -82, 36.5] }, { sort: 'PRICE_ASC' }]) {
      const plain = await ok({ ...variables, first: 5 });
      expect(plain.nodes.length).toBeGreaterThan(0);
      for (const n of plain.nodes) expect(n.distanceKm).toBeNull();
      for (const e of plain.edges) expect(e.distanceKm).toBeNull();
      expect(plain.facets).toBeNull();
    }
  });

  it('finds nearCity by slug or by name in any case, with the same answer', async () => {
    const answers = await Promise.all(['asheville', 'Asheville', 'ASHEVILLE'].map((nearCity) => ok({ nearCity, first: 100 })));
    expect(answers[0].nodes.length).toBeGreaterThan(0);
    for (const page of answers) {
      expect(page.nodes).toEqual(answers[0].nodes);
      expect(page.totalCount).toBe(answers[0].totalCount);
    }
  });

  it('orders as REST orders for every VenueSort value', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sort: 'RECOMMENDED' }, 'sort=recommended'],
      [{ sort: 'PRICE_ASC' }, 'sort=price_asc'],
      [{ sort: 'PRICE_DESC' }, 'sort=price_desc'],
      [{ sort: 'CAPACITY_DESC' }, 'sort=capacity_desc'],
      [{ sort: 'DISTANCE', near: [35.6, -82.55], radiusKm: 400 }, 'sort=distance&near=35.6,-82.55&radius_km=400'],
      [{ sort: 'RELEVANCE', q: 'tuscany' }, 'sort=relevance&q=tuscany'],
    ];
    for (const [variables, query] of cases) {
      const page = await ok({ ...variables, first: 40 });
      const rest = await t.rest(`/api/v1/venues?${query}&limit=40`);
      expect(
        page.nodes.map((n: { slug: string }) => n.slug),
        query,
      ).toEqual(rest.body.data.map((v: { slug: string }) => v.slug));
      expect(page.pageInfo.endCursor).toBe(rest.body.pagination.next_cursor);
    }
    const capacities = (await ok({ sort: 'CAPACITY_DESC', first: 100 })).nodes.map((n: { capacityMax: number }) => n.capacityMax);
    expect(capacities).toEqual([...capacities].sort((a, b) => b - a));
  });

  it('refuses a cursor of one order with another (invalid_cursor naming after) and continues it with its own', async () => {
    const first = await ok({ sort: 'PRICE_ASC', first: 5 });
    const after = first.pageInfo.endCursor;
    for (const variables of [{ sort: 'PRICE_DESC' }, { sort: 'CAPACITY_DESC' }, {}, { sort: 'RECOMMENDED' }]) {
      expectGraphQLError(await search({ ...variables, first: 5, after }), 'invalid_cursor', 'after');
    }
    const next = await ok({ sort: 'PRICE_ASC', first: 5, after });
    const seen = new Set(first.nodes.map((n: { slug: string }) => n.slug));
    for (const n of next.nodes) expect(seen.has(n.slug)).toBe(false);
    const near = await ok({ nearCity: 'asheville', radiusKm: 300, sort: 'DISTANCE', first: 3 });
    expectGraphQLError(await search({ nearCity: 'asheville', radiusKm: 300, first: 3, after: near.pageInfo.endCursor }), 'invalid_cursor', 'after');
    const continued = await ok({ nearCity: 'asheville', radiusKm: 300, sort: 'DISTANCE', first: 3, after: near.pageInfo.endCursor });
    expect(continued.nodes[0].distanceKm).toBeGreaterThanOrEqual(near.nodes[2].distanceKm);
  });

  it('has facets with the asked counts only, null when none is asked; the counts REST gives', async () => {
    const none = await ok({ first: 1 });
    expect(none.facets).toBeNull();
    const some = await ok({ facets: ['STATE', 'CAPACITY_BAND'], first: 1 });
    expect(some.facets.venueType).toBeNull();
    expect(some.facets.amenities).toBeNull();
    expect(some.facets.priceBand).toBeNull();
    expect(some.facets.state.length).toBeGreaterThan(0);
    expect(some.facets.capacityBand.length).toBeGreaterThan(0);
    for (const [variables, query] of [
      [{ nearCity: 'asheville', radiusKm: 400 }, 'near_city=asheville&radius_km=400'],
      [{ q: 'barn' }, 'q=barn'],
      [{ state: 'texas' }, 'state=texas'],
    ] as Array<[Record<string, unknown>, string]>) {
      const page = await ok({ ...variables, facets: VENUE_FACETS.map(enumName), first: 1 });
      const rest = await t.rest(`/api/v1/venues?${query}&facets=${VENUE_FACETS.join(',')}&limit=1`);
      expect(rest.status).toBe(200);
      expect(page.facets, query).toEqual(camelKeys(rest.body.facets));
      for (const key of ['venueType', 'amenities', 'state', 'priceBand', 'capacityBand'])
        expect(page.facets[key].length, `${query} ${key}`).toBeGreaterThan(0);
      // A state's count is the search's total with that state.
      for (const s of page.facets.state.slice(0, 2)) {
        const narrowed = await ok({ ...variables, state: s.value, first: 1 });
        expect(narrowed.totalCount, `${query}: state ${s.value}`).toBe(s.count);
      }
    }
  });
});
