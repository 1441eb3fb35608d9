import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, withEnumNames, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from '../../src/venues/venue-relations.js';
import { taggedColumns } from '../../src/graphql/model-columns.js';

const TODAY = new Date('2026-06-15T12:00:00Z');
const LIST_SELECTION = `slug name city state country propertyType venueType latitude longitude capacityMin capacityMax bedrooms beds bathrooms
  gatheringSpaces priceRange pricing { priceUnit currency minNights weekdayBase weekendBase extraNight startingTotal { amount nights rate includesFees } rateDate }
  heroImage seoDescription amenities url`;
/** §2.3's description, accommodates, categories and totalPhotos, and any column added as a detail field since. */
const DETAIL_COLUMNS = taggedColumns('Venue', 'detail')
  .map(({ name }) => name)
  .join(' ');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

describe('GraphQL venues', () => {
  it('returns the same venues and values as REST, with camelCase names and Relay connection fields', async () => {
    const rest = await t.rest('/api/v1/venues?state=tuscany&limit=7');
    const gql = await t.graphql(
      `query($s: String) { venues(state: $s, first: 7) { totalCount pageInfo { hasNextPage endCursor hasPreviousPage }
      edges { cursor node { slug } } nodes { ${LIST_SELECTION} } } }`,
      { s: 'tuscany' },
    );
    expect(gql.status, gql.text).toBe(200);
    const page = gql.body.data.venues;
    expect(page.nodes).toEqual(withEnumNames(camelKeys(rest.body.data), ['priceUnit', 'currency', 'rate']));
    expect(page.totalCount).toBe(rest.body.pagination.total_count);
    expect(page.pageInfo.hasNextPage).toBe(rest.body.pagination.has_more);
    expect(page.pageInfo.endCursor).toBe(rest.body.pagination.next_cursor);
    expect(page.edges.map((e: { node: { slug: string } }) => e.node.slug)).toEqual(page.nodes.map((n: { slug: string }) => n.slug));
    expect(page.edges.at(-1).cursor).toBe(page.pageInfo.endCursor);
  });

  it('continues from any edge cursor', async () => {
    const first = await t.graphql('{ venues(first: 6) { edges { cursor node { slug } } } }');
    const edges = first.body.data.venues.edges;
    const next = await t.graphql('query($a: String) { venues(first: 3, after: $a) { nodes { slug } } }', { a: edges[2].cursor });
    expect(next.body.data.venues.nodes.map((n: { slug: string }) => n.slug)).toEqual(
      edges.slice(3, 6).map((e: { node: { slug: string } }) => e.node.slug),
    );
  });

  it('gives the same codes as REST, naming the GraphQL argument', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['first: 0', 'first', 'limit=0', 'limit'],
      ['first: 101', 'first', 'limit=101', 'limit'],
      ['capacityMin: -1', 'capacityMin', 'capacity_min=-1', 'capacity_min'],
      ['priceMin: 10, priceMax: 5', 'priceMax', 'price_min=10&price_max=5', 'price_max'],
      ['bedroomsMin: -2', 'bedroomsMin', 'bedrooms_min=-2', 'bedrooms_min'],
    ];
    for (const [args, gqlParam, query, restParam] of cases) {
      const gql = await t.graphql(`{ venues(${args}) { totalCount } }`);
      expectGraphQLError(gql, 'invalid_parameters', gqlParam);
      expect(gql.body.errors[0].extensions.status).toBe(400);
      expectRestError(await t.rest(`/api/v1/venues?${query}`), 400, 'invalid_parameters', restParam);
    }
    expectGraphQLError(await t.graphql('{ venues(after: "forged.cursor") { totalCount } }'), 'invalid_cursor', 'after');
  });

  it('venue(slug) returns the detail REST returns; unknown and malformed slugs carry the REST codes', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'AUD', totalPhotos: { gt: 0 } } });
    const rest = await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`);
    const gql = await t.graphql(
      `query($slug: String!) { venue(slug: $slug) { ${LIST_SELECTION} ${DETAIL_COLUMNS}
      photos { url category isFeatured position } testimonials { guestName rating review eventDate } } }`,
      { slug: venue.slug },
    );
    expect(gql.body.data.venue).toEqual(withEnumNames(camelKeys(rest.body.data), ['priceUnit', 'currency', 'rate']));
    const missing = await t.graphql('{ a: venue(slug: "texas/austin/nope") { slug } b: venues(first: 1) { totalCount } }');
    expectGraphQLError(missing, 'venue_not_found', 'slug');
    expect(missing.body.data.a).toBeNull();
    expect(missing.body.data.b.totalCount).toBeGreaterThan(0);
    expectGraphQLError(await t.graphql('{ venue(slug: "bad slug!") { slug } }'), 'invalid_slug', 'slug');
  });
});

describe('SQL statements per request (batching)', () => {
  const query = (
    first: number,
    state = 'california',
  ) => `{ venues(state: "${state}", first: ${first}) { totalCount nodes { slug pricing { currency startingTotal { amount } rateDate }
    photos { url } testimonials { rating } } } }`;

  it('costs a fixed number of statements for 20 or 100 venues with photos, testimonials and pricing', async () => {
    // key lookup + venues with photos and testimonials, and totalCount, in one statement
    const twenty = await t.statements(() => t.graphql(query(20)));
    const hundred = await t.statements(() => t.graphql(query(100)));
    expect(twenty).toBe(2);
    expect(hundred).toBe(twenty);
    // Australian venues need the day's USD→AUD rate: looked up once, then reused by the process.
    const firstAud = await t.statements(() => t.graphql(query(2, 'new-south-wales')));
    const fewAud = await t.statements(() => t.graphql(query(2, 'new-south-wales')));
    const manyAud = await t.statements(() => t.graphql(query(30, 'new-south-wales')));
    expect(firstAud).toBeLessThanOrEqual(3);
    expect(fewAud).toBe(2);
    expect(manyAud).toBe(2);
  });

  it('keeps cursor pages and REST routes just as flat', async () => {
    const page = await t.graphql('{ venues(first: 20) { pageInfo { endCursor } } }');
    const after = page.body.data.venues.pageInfo.endCursor;
    const cursorPage = await t.statements(() =>
      t.graphql(`query($a: String) { venues(first: 20, after: $a) { nodes { slug photos { url } testimonials { rating } } } }`, { a: after }),
    );
    expect(cursorPage).toBeLessThanOrEqual(4);
    expect(await t.statements(() => t.rest('/api/v1/venues?limit=20'))).toBeLessThanOrEqual(4);
    const slug = (await t.db.prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'USD' } })).slug;
    expect(await t.statements(() => t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`))).toBeLessThanOrEqual(2);
  });

  it('reads only the photo and testimonial columns a query asks for, as Prisma reads them, on graphql-js and once compiled', async () => {
    // The relations come as JSON in the page's own statement, built from the plan (src/venues/venue-rows.ts): whole rows
    // were 4x the JSON a search with photos and testimonials shows. /graphql compiles a document on its second run.
    const expected = await t.db.prisma.venue.findMany({
      where: { published: true },
      orderBy: { slug: 'asc' },
      take: 20,
      select: {
        slug: true,
        photos: { ...VENUE_PHOTOS, select: { url: true, category: true } },
        testimonials: { ...VENUE_TESTIMONIALS, select: { rating: true, eventDate: true } },
      },
    });
    const query = `{ venues(first: 20) { nodes { slug a: photos { url } b: photos { category } testimonials { rating eventDate } } } }`;
    const baseline = await t.statements(() => t.graphql('{ venues(first: 20) { nodes { slug } } }'));
    for (let run = 0; run < 3; run++) {
      const statements: string[] = [];
      const stop = t.db.onQuery((e) => statements.push(e.query));
      const res = await t.graphql(query);
      stop();
      expect(res.body.errors, res.text).toBeUndefined();
      expect(res.body.data.venues.nodes).toEqual(
        expected.map((v) => ({
          slug: v.slug,
          a: v.photos.map((p) => ({ url: p.url })),
          b: v.photos.map((p) => ({ category: p.category })),
          testimonials: v.testimonials.map((x) => ({ rating: x.rating, eventDate: x.eventDate?.toISOString().slice(0, 10) ?? null })),
        })),
      );
      expect(statements.length, `run ${run}`).toBe(baseline);
      const page = statements.find((q) => q.includes('FROM "VenuePhoto"'))!;
      expect(page).toMatch(/'url', p\."url"/);
      expect(page).toMatch(/'rating', t\."rating"/);
      expect(page).not.toMatch(/"review"|"venueId",|json_agg\([pt] /);
    }
    // A review, asked for, is read in the same statement on both executors and by the REST detail (compiled at once).
    const [{ slug }] = expected.filter((v) => v.testimonials.length > 0);
    const reviews = await t.db.prisma.testimonial.findMany({
      where: { venue: { slug } },
      ...VENUE_TESTIMONIALS,
      select: { review: true },
    });
    for (let run = 0; run < 3; run++) {
      let body: { data: { venue: { testimonials: unknown[] } } } | undefined;
      const count = await t.statements(async () => {
        body = (await t.graphql('query($s: String!) { venue(slug: $s) { testimonials { review } } }', { s: slug })).body;
      });
      expect(body!.data.venue.testimonials).toEqual(reviews);
      expect(count, `run ${run}`).toBe(baseline);
    }
    let detail: { body: { data: { testimonials: Array<{ review: string | null }> } } } | undefined;
    expect(await t.statements(async () => (detail = await t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`)))).toBe(baseline);
    expect(detail!.body.data.testimonials.map((x) => ({ review: x.review }))).toEqual(reviews);
  });

  it('does not multiply statements with aliases of nested lists', async () => {
    const aliased = await t.statements(() =>
      t.graphql(`{ venues(first: 20) { nodes { slug a: photos { url } b: photos { category } testimonials { rating } } } }`),
    );
    expect(aliased).toBeLessThanOrEqual(4);
  });
});
