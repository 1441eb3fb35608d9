import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { createJitExecutor } from '../../src/graphql/jit.js';
import { getSchema } from '../../src/graphql/schema.js';
import { createTestApp, type TestApp } from '../support/app.js';

// /graphql runs a query document compiled by graphql-jit from its second execution on (src/graphql/jit.ts); the first
// runs on graphql-js. Each document below is sent twice: the compiled answer must be the graphql-js answer, errors
// included.
const TODAY = new Date('2026-06-15T12:00:00Z');
const manifest = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../examples/frontend/generated/persisted-documents.json', import.meta.url)), 'utf8'),
) as Record<string, string>;
const frontend = (name: string) => Object.values(manifest).find((text) => text.includes(`query ${name}`))!;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

/** The body without request ids, which differ per request by design. */
const withoutRequestIds = (text: string) => text.replace(/"(request_id|requestId)":"[^"]*"/g, '"$1":"…"');

describe('GraphQL documents compiled by graphql-jit', () => {
  it('answer as graphql-js does: frontend operations, fragments, aliases, interfaces, directives and errors', async () => {
    const search = await t.graphql('{ venues(first: 2) { nodes { id slug } } vendors(first: 1) { nodes { slug } } }');
    const [venue, other] = search.body.data.venues.nodes;
    const vendor = search.body.data.vendors.nodes[0];
    const cases: Array<[string, Record<string, unknown>]> = [
      [frontend('VenueSearch'), { first: 5, amenities: ['pool'] }],
      [frontend('VenueDetail'), { slug: venue.slug }],
      [frontend('VendorSearch'), { first: 3 }],
      [frontend('VendorDetail'), { slug: vendor.slug }],
      [frontend('VendorCategories'), {}],
      [
        `query Twice($slug: String!) {
           a: venue(slug: $slug) { ...Card photos(first: 2) { url } }
           b: venue(slug: $slug) { name testimonials { rating } }
         }
         fragment Card on Venue { slug pricing { currency startingTotal { amount } } }`,
        { slug: venue.slug },
      ],
      [
        `query($ids: [ID!]!, $withName: Boolean!) { nodes(ids: $ids) { __typename id ... on Venue { slug name @include(if: $withName) } } }`,
        { ids: [venue.id, other.id, 'bm90LWFuLWlk'], withName: false },
      ],
      // Errors: a resolver's (no such venue), a cursor refused by the service, and a variable of the wrong type.
      [`query($slug: String!) { venue(slug: $slug) { slug } }`, { slug: 'texas/austin/no-such-venue' }],
      [`query($after: String) { venues(first: 1, after: $after) { nodes { slug } } }`, { after: 'forged.cursor' }],
      [`query($first: Int) { venues(first: $first) { nodes { slug } } }`, { first: 'twenty' }],
    ];
    for (const [query, variables] of cases) {
      const first = await t.graphql(query, variables);
      const second = await t.graphql(query, variables);
      expect(second.status, query).toBe(first.status);
      expect(withoutRequestIds(second.text), query).toBe(withoutRequestIds(first.text));
    }
  });

  it('compiles a query on its second execution, once; never a mutation', async () => {
    const compiled: string[] = [];
    const execute = createJitExecutor({ compileAfter: 1, onCompile: (name) => compiled.push(name) });
    const schema = getSchema();
    const query = parse('query Probe { __typename }');
    const mutation = parse('mutation Write { __typename }');
    for (let i = 0; i < 3; i++) {
      expect(await execute({ schema, document: query })).toEqual({ data: { __typename: 'Query' } });
      expect(await execute({ schema, document: mutation })).toEqual({ data: { __typename: 'Mutation' } });
    }
    expect(compiled).toEqual(['Probe']);
  });
});
