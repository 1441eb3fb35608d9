import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, fetchExchange, gql } from '@urql/core';
import { cacheExchange, type Cache } from '@urql/exchange-graphcache';
import { BASE_URL, createTestApp, expectGraphQLError, type TestApp } from '../support/app.js';

const TODAY = new Date('2026-06-15T12:00:00Z');
const b64 = (text: string) => Buffer.from(text).toString('base64');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => TODAY });
});
afterAll(() => t.close());

async function data(query: string, variables: Record<string, unknown> = {}) {
  const res = await t.graphql(query, variables);
  expect(res.status, res.text).toBe(200);
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data;
}

describe('global object identification', () => {
  it('gives a venue the same id in search, in venue(slug:) and in node(id:)', async () => {
    const search = await data('{ venues(state: "california", first: 3) { nodes { id slug } edges { node { id } } } }');
    const [first] = search.venues.nodes;
    expect(search.venues.edges[0].node.id).toBe(first.id);
    const detail = await data('query($s: String!) { venue(slug: $s) { id slug } }', { s: first.slug });
    expect(detail.venue).toEqual(first);
    const node = await data('query($id: ID!) { node(id: $id) { __typename id ... on Venue { slug name } } }', { id: first.id });
    expect(node.node).toMatchObject({ __typename: 'Venue', id: first.id, slug: first.slug });
    // Opaque, but plugin-relay's base64 of Type:primary key, so stable across deployments of the same data.
    expect(Buffer.from(first.id, 'base64').toString()).toMatch(/^Venue:[0-9a-f-]{36}$/);
  });

  it('resolves __typename for every Node type, and each id back to itself', async () => {
    const lists = await data(`{
      venues(first: 1) { nodes { id } }
      vendors(first: 1) { nodes { id } }
      vendorCategories { id slug }
      inspirationPhotos(first: 1) { nodes { id photoId } }
      blogPosts(limit: 1) { nodes { id primaryAuthor { id } tags { id } } }
    }`);
    const post = lists.blogPosts.nodes[0];
    const expected: Array<[string, string]> = [
      ['Venue', lists.venues.nodes[0].id],
      ['Vendor', lists.vendors.nodes[0].id],
      ['VendorCategory', lists.vendorCategories[0].id],
      ['InspirationPhoto', lists.inspirationPhotos.nodes[0].id],
      ['BlogPost', post.id],
      ['BlogAuthor', post.primaryAuthor.id],
      ['BlogTag', post.tags[0].id],
    ];
    const { nodes } = await data('query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids: expected.map(([, id]) => id) });
    expect(nodes).toEqual(expected.map(([__typename, id]) => ({ __typename, id })));
    expect(Buffer.from(lists.vendorCategories[0].id, 'base64').toString()).toBe(`VendorCategory:${lists.vendorCategories[0].slug}`);
    expect(Buffer.from(lists.inspirationPhotos.nodes[0].id, 'base64').toString()).toBe(
      `InspirationPhoto:${lists.inspirationPhotos.nodes[0].photoId}`,
    );
  });

  it('answers nodes(ids:) in order, with null for unknown and malformed ids (never an error)', async () => {
    const { venues, vendors } = await data('{ venues(first: 2) { nodes { id slug } } vendors(first: 1) { nodes { id slug } } }');
    const ids = [
      venues.nodes[0].id,
      b64('Venue:0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11'), // well formed, no such venue
      'not base64 at all!',
      vendors.nodes[0].id,
      b64('Venue:not-a-uuid'), // would be a database error if it reached PostgreSQL
      b64('Nope:1'), // not a type
      b64('PageInfo:1'), // a type, but not a Node
      b64('Venue'),
      '',
      venues.nodes[1].id,
    ];
    const res = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Venue { slug } ... on Vendor { slug } } }', { ids });
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data.nodes).toEqual([venues.nodes[0], null, null, vendors.nodes[0], null, null, null, null, null, venues.nodes[1]]);
    for (const id of ids.slice(1, 3)) expect((await data('query($id: ID!) { node(id: $id) { id } }', { id })).node).toBeNull();
    expectGraphQLError(
      await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array(101).fill(ids[0]) }),
      'invalid_parameters',
      'ids',
    );
  });

  it('never shows what REST hides: unpublished venues, inactive vendors, drafts', async () => {
    const venue = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true }, orderBy: { slug: 'desc' } });
    const vendor = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true }, orderBy: { slug: 'desc' } });
    const draft = await t.db.prisma.blogPost.findFirstOrThrow({ where: { status: 'draft' } });
    const ids = [b64(`Venue:${venue.id}`), b64(`Vendor:${vendor.id}`), b64(`BlogPost:${draft.id}`)];
    const query = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    expect((await data(query, { ids })).nodes.slice(0, 2)).toEqual(ids.slice(0, 2).map((id) => ({ id })));
    await t.db.prisma.venue.update({ where: { id: venue.id }, data: { published: false } });
    await t.db.prisma.vendor.update({ where: { id: vendor.id }, data: { active: false } });
    try {
      expect((await data(query, { ids })).nodes).toEqual([null, null, null]);
      expect((await data('query($id: ID!) { node(id: $id) { id } }', { id: ids[0] })).node).toBeNull();
      expect((await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`)).status).toBe(404);
    } finally {
      await t.db.prisma.venue.update({ where: { id: venue.id }, data: { published: true } });
      await t.db.prisma.vendor.update({ where: { id: vendor.id }, data: { active: true } });
    }
  });

  it('loads nodes(ids:) with one statement per type, however many ids', async () => {
    const { venues, vendors, inspirationPhotos } = await data(
      '{ venues(first: 40) { nodes { id } } vendors(first: 40) { nodes { id } } inspirationPhotos(first: 40) { nodes { id } } }',
    );
    const ids = (n: number) => [...venues.nodes, ...vendors.nodes, ...inspirationPhotos.nodes].filter((_, i) => i % 40 < n).map((v) => v.id);
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Venue { slug photos { url } testimonials { rating } }
      ... on Vendor { slug photos { url } } ... on InspirationPhoto { imageUrl } } }`;
    const counted = async (n: number) => {
      let nodes: unknown[] = [];
      const count = await t.statements(async () => {
        const res = await t.graphql(query, { ids: ids(n) });
        expect(res.body.errors, res.text).toBeUndefined();
        nodes = res.body.data.nodes;
      });
      expect(nodes).toHaveLength(3 * n);
      expect(nodes.every(Boolean)).toBe(true);
      return count;
    };
    const few = await counted(2);
    const many = await counted(33);
    // The API key lookup, then one statement per type: venues (photos and testimonials joined), vendors, photos.
    expect(few).toBe(4);
    expect(many).toBe(few);
  });

  it('leaves REST bodies as they were: no global ids; inspiration keeps its UUID as id', async () => {
    const venues = await t.rest('/api/v1/venues?limit=2');
    const vendors = await t.rest('/api/v1/vendors?limit=2');
    const venue = await t.rest(`/api/v1/venues/${encodeURIComponent(venues.body.data[0].slug)}`);
    const vendor = await t.rest(`/api/v1/vendors/${encodeURIComponent(vendors.body.data[0].slug)}`);
    const posts = await t.rest('/api/v1/blog/posts?limit=2');
    for (const item of [...venues.body.data, ...vendors.body.data, venue.body.data, vendor.body.data, ...posts.body.data]) {
      expect(item).not.toHaveProperty('id');
      expect(item.primary_author ?? {}).not.toHaveProperty('id');
    }
    const photos = await t.rest('/api/v1/inspiration?limit=2');
    const gql = await data('{ inspirationPhotos(first: 2) { nodes { id photoId } } }');
    expect(photos.body.data.map((p: { id: string }) => p.id)).toEqual(gql.inspirationPhotos.nodes.map((n: { photoId: string }) => n.photoId));
    const detail = await t.rest(`/api/v1/inspiration/${photos.body.data[0].id}`);
    expect(detail.body.data.id).toBe(photos.body.data[0].id);
    expect(detail.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says when rows precede a page (pages are read forward only)', async () => {
    const first = await data('{ venues(first: 2) { pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }');
    expect(first.venues.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const next = await data('query($a: String) { venues(first: 2, after: $a) { pageInfo { hasPreviousPage } } }', {
      a: first.venues.pageInfo.endCursor,
    });
    expect(next.venues.pageInfo.hasPreviousPage).toBe(true);
    const vendors = await data('{ vendors(first: 2) { pageInfo { hasPreviousPage endCursor } } }');
    expect(vendors.vendors.pageInfo.hasPreviousPage).toBe(false);
    const vendorsNext = await data('query($a: String) { vendors(first: 2, after: $a) { pageInfo { hasPreviousPage } } }', {
      a: vendors.vendors.pageInfo.endCursor,
    });
    expect(vendorsNext.vendors.pageInfo.hasPreviousPage).toBe(true);
    const photos = await data(
      '{ a: inspirationPhotos(first: 2) { pageInfo { hasPreviousPage } } b: inspirationPhotos(first: 2, offset: 4) { pageInfo { hasPreviousPage } } }',
    );
    expect([photos.a.pageInfo.hasPreviousPage, photos.b.pageInfo.hasPreviousPage]).toEqual([false, true]);
  });
});

describe('a normalising client cache (urql graphcache)', () => {
  it('keeps ONE Venue entity for a search result and a detail, with the union of their fields', async () => {
    // What graphcache holds under the venue's key, read while it resolves node(id:) (its API is live only then).
    let entity: { key: string | null; fields: string[] } | undefined;
    let requests = 0;
    const client = new Client({
      url: `${BASE_URL}/graphql`,
      preferGetMethod: false,
      fetch: (input, init) => {
        requests++;
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${t.keys.partner}`);
        return t.app.fetch(new Request(String(input), { ...init, headers }));
      },
      exchanges: [
        cacheExchange({
          // The usual redirect: node(id:) reads the entity the cache already holds under that id.
          resolvers: {
            Query: {
              node: (_parent, args, cache: Cache) => {
                const ref = { __typename: 'Venue', id: args.id as string };
                entity = { key: cache.keyOfEntity(ref), fields: cache.inspectFields(ref).map((f) => f.fieldName) };
                return ref;
              },
            },
          },
        }),
        fetchExchange,
      ],
    });
    const search = await client
      .query(
        gql`
        query Search {
          venues(state: "tuscany", first: 5) {
            nodes {
              id
              slug
              name
              heroImage
              priceRange
            }
          }
        }
      `,
        {},
      )
      .toPromise();
    expect(search.error).toBeUndefined();
    const listed = search.data.venues.nodes[0];
    const detail = await client
      .query(
        gql`
        query Detail($slug: String!) {
          venue(slug: $slug) {
            id
            slug
            name
            description
            totalPhotos
          }
        }
      `,
        { slug: listed.slug },
      )
      .toPromise();
    expect(detail.error).toBeUndefined();
    expect(detail.data.venue.id).toBe(listed.id);
    expect(requests).toBe(2);

    // Read back from the cache alone: fields from the search and from the detail, on one entity.
    const cached = await client
      .query(
        gql`
          query Cached($id: ID!) {
            node(id: $id) {
              id
              ... on Venue {
                slug
                name
                heroImage
                priceRange
                description
                totalPhotos
              }
            }
          }
        `,
        { id: listed.id },
        { requestPolicy: 'cache-only' },
      )
      .toPromise();
    expect(requests).toBe(2);
    expect(cached.data.node).toEqual({
      id: listed.id,
      slug: listed.slug,
      name: listed.name,
      heroImage: listed.heroImage,
      priceRange: listed.priceRange,
      description: detail.data.venue.description,
      totalPhotos: detail.data.venue.totalPhotos,
    });
    // One entity under the global id holds the union of both queries' fields.
    expect(entity?.key).toBe(`Venue:${listed.id}`);
    expect(new Set(entity?.fields)).toEqual(new Set(['__typename', 'id', 'slug', 'name', 'heroImage', 'priceRange', 'description', 'totalPhotos']));
  });
});
