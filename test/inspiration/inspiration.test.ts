import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, withEnumNames, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import {
  INSPIRATION_COLORS,
  INSPIRATION_MOODS,
  INSPIRATION_SEASONS,
  INSPIRATION_SETTINGS,
  INSPIRATION_STYLES,
} from '../../src/inspiration/inspiration.inputs.js';

const LIST_FIELDS = ['alt', 'colors', 'id', 'image_url', 'moods', 'season', 'settings', 'source', 'styles'];
const SOURCE_FIELDS = ['city', 'name', 'slug', 'state', 'type', 'url'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('inspiration data', () => {
  it('has at least 2,000 photos, each linked to a real published venue or active vendor', async () => {
    const photos = await t.db.prisma.inspirationPhoto.findMany();
    expect(photos.length).toBeGreaterThanOrEqual(2000);
    const venues = new Map((await t.db.prisma.venue.findMany({ where: { published: true } })).map((v) => [v.id, v]));
    const vendors = new Map((await t.db.prisma.vendor.findMany({ where: { active: true } })).map((v) => [v.id, v]));
    for (const p of photos) {
      if (p.sourceType === 'property') {
        const v = venues.get(p.sourceId);
        expect(v, p.id).toBeDefined();
        expect([p.sourceName, p.sourceSlug, p.sourceCity, p.sourceState]).toEqual([v!.name, v!.slug, v!.city, v!.state]);
      } else {
        expect(p.sourceType).toBe('vendor');
        const v = vendors.get(p.sourceId);
        expect(v, p.id).toBeDefined();
        expect([p.sourceName, p.sourceSlug]).toEqual([v!.businessName, v!.slug]);
      }
      expect(p.styles.length).toBeGreaterThan(0);
      for (const s of p.styles) expect(INSPIRATION_STYLES).toContain(s);
      for (const s of p.settings) expect(INSPIRATION_SETTINGS).toContain(s);
      for (const s of p.colors) expect(INSPIRATION_COLORS).toContain(s);
      for (const s of p.moods) expect(INSPIRATION_MOODS).toContain(s);
      if (p.season !== null) expect(INSPIRATION_SEASONS).toContain(p.season);
    }
    expect(new Set(photos.map((p) => p.sourceType))).toEqual(new Set(['property', 'vendor']));
    for (const values of [INSPIRATION_STYLES, INSPIRATION_SETTINGS, INSPIRATION_MOODS, INSPIRATION_COLORS]) {
      for (const v of values)
        expect(
          photos.some((p) => [...p.styles, ...p.settings, ...p.moods, ...p.colors].includes(v)),
          v,
        ).toBe(true);
    }
  });
});

describe('GET /api/v1/inspiration', () => {
  it('returns 20 photos with §2.12 list fields, offset pagination and the request id', async () => {
    const res = await t.rest('/api/v1/inspiration');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'request_id']);
    expect(res.body.data).toHaveLength(20);
    const total = await t.db.prisma.inspirationPhoto.count();
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total, has_more: true });
    for (const p of res.body.data) {
      expect(Object.keys(p).sort()).toEqual(LIST_FIELDS);
      expect(Object.keys(p.source).sort()).toEqual(SOURCE_FIELDS);
      expect(p.source.url).toBe(`http://api.test/${p.source.type === 'property' ? 'venues' : 'vendors'}/${p.source.slug}`);
    }
  });

  it('pages by offset without gaps or overlaps, to the last page', async () => {
    const all = (await t.rest('/api/v1/inspiration?style=coastal&limit=100')).body;
    const ids: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await t.rest(`/api/v1/inspiration?style=coastal&limit=7&offset=${offset}`);
      ids.push(...page.body.data.map((p: { id: string }) => p.id));
      expect(page.body.pagination).toMatchObject({ limit: 7, offset, total: all.pagination.total });
      if (!page.body.pagination.has_more) break;
      if (offset > 300) break;
    }
    expect(ids.slice(0, 100)).toEqual(all.data.map((p: { id: string }) => p.id));
    if (all.pagination.total <= 300) expect(ids).toHaveLength(all.pagination.total);
    const beyond = await t.rest(`/api/v1/inspiration?offset=${all.pagination.total + 5000}`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination.has_more).toBe(false);
  });

  it('filters by each enumeration, combined with AND', async () => {
    const cases: Array<[string, string, (p: any) => boolean]> = [
      ['style', 'rustic', (p) => p.styles.includes('rustic')],
      ['setting', 'beach', (p) => p.settings.includes('beach')],
      ['color', 'earth_tones', (p) => p.colors.includes('earth_tones')],
      ['mood', 'serene', (p) => p.moods.includes('serene')],
      ['season', 'winter', (p) => p.season === 'winter'],
    ];
    for (const [param, value, matches] of cases) {
      const res = await t.rest(`/api/v1/inspiration?${param}=${value}&limit=100`);
      expect(res.body.data.length, param).toBeGreaterThan(0);
      expect(res.body.data.every(matches), param).toBe(true);
    }
    const both = await t.rest('/api/v1/inspiration?style=rustic&season=fall&limit=100');
    expect(both.body.data.every((p: any) => p.styles.includes('rustic') && p.season === 'fall')).toBe(true);
    const expected = await t.db.prisma.inspirationPhoto.count({ where: { styles: { has: 'rustic' }, season: 'fall' } });
    expect(both.body.pagination.total).toBe(expected);
  });

  it('refuses a value outside its enumeration listing the allowed values, and bad limit/offset', async () => {
    const enums: Array<[string, readonly string[]]> = [
      ['style', INSPIRATION_STYLES],
      ['setting', INSPIRATION_SETTINGS],
      ['color', INSPIRATION_COLORS],
      ['mood', INSPIRATION_MOODS],
      ['season', INSPIRATION_SEASONS],
    ];
    for (const [param, values] of enums) {
      const res = await t.rest(`/api/v1/inspiration?${param}=plaid`);
      expectRestError(res, 400, 'invalid_parameters', param);
      for (const v of values) expect(res.body.error.message).toContain(v);
    }
    for (const bad of ['0', '101', 'x']) expectRestError(await t.rest(`/api/v1/inspiration?limit=${bad}`), 400, 'invalid_parameters', 'limit');
    for (const bad of ['-1', '1.5', 'x']) expectRestError(await t.rest(`/api/v1/inspiration?offset=${bad}`), 400, 'invalid_parameters', 'offset');
    expect((await t.rest('/api/v1/inspiration?limit=100')).body.data).toHaveLength(100);
    expect((await t.rest('/api/v1/inspiration?style=RUSTIC&limit=1')).status).toBe(200);
  });
});

describe('GET /api/v1/inspiration/{id}', () => {
  it('returns the detail with description and variants', async () => {
    const photo = await t.db.prisma.inspirationPhoto.findFirstOrThrow({
      where: { imageUrl: { not: null }, description: { not: null } },
      orderBy: { position: 'asc' },
    });
    const res = await t.rest(`/api/v1/inspiration/${photo.id}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([...LIST_FIELDS, 'description', 'variants'].sort());
    expect(res.body.data.variants).toEqual({ small: photo.smallUrl, medium: photo.mediumUrl, large: photo.largeUrl });
    expect(res.body.data.image_url).toBe(photo.mediumUrl);
    expect(res.body.data.description).toBe(photo.description);
  });

  it('answers invalid_id for a malformed id and 404 inspiration_photo_not_found for an unknown one', async () => {
    for (const bad of ['123', 'not-a-uuid', '0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a1'])
      expectRestError(await t.rest(`/api/v1/inspiration/${bad}`), 400, 'invalid_id', 'id');
    expectRestError(await t.rest('/api/v1/inspiration/0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11'), 404, 'inspiration_photo_not_found', 'id');
  });
});

describe('GraphQL inspiration', () => {
  it('inspirationPhotos is a Relay connection with the same photos as REST', async () => {
    const rest = await t.rest('/api/v1/inspiration?mood=joyful&limit=5&offset=5');
    const gql = await t.graphql(`{ inspirationPhotos(mood: JOYFUL, first: 5, offset: 5) { totalCount limit offset pageInfo { hasNextPage endCursor }
      edges { cursor } nodes { id: photoId imageUrl alt source { type name slug url city state } styles settings colors moods season } } }`);
    expect(gql.status, gql.text).toBe(200);
    const page = gql.body.data.inspirationPhotos;
    expect(page.nodes).toEqual(withEnumNames(camelKeys(rest.body.data), ['styles', 'settings', 'colors', 'moods', 'season']));
    expect([page.totalCount, page.limit, page.offset, page.pageInfo.hasNextPage]).toEqual([
      rest.body.pagination.total,
      5,
      5,
      rest.body.pagination.has_more,
    ]);
    const next = await t.graphql('query($a: String) { inspirationPhotos(mood: JOYFUL, first: 5, after: $a) { offset nodes { id: photoId } } }', {
      a: page.pageInfo.endCursor,
    });
    const restNext = await t.rest('/api/v1/inspiration?mood=joyful&limit=5&offset=10');
    expect(next.body.data.inspirationPhotos.offset).toBe(10);
    expect(next.body.data.inspirationPhotos.nodes.map((n: { id: string }) => n.id)).toEqual(restNext.body.data.map((p: { id: string }) => p.id));
    expectGraphQLError(
      await t.graphql(`query($a: String) { inspirationPhotos(mood: SERENE, after: $a) { totalCount } }`, { a: page.pageInfo.endCursor }),
      'invalid_cursor',
      'after',
    );
  });

  it('gives the same codes as REST', async () => {
    expectGraphQLError(await t.graphql('{ inspirationPhotos(style: "plaid") { totalCount } }'), 'invalid_parameters', 'style');
    expectGraphQLError(await t.graphql('{ inspirationPhotos(first: 101) { totalCount } }'), 'invalid_parameters', 'first');
    expectGraphQLError(await t.graphql('{ inspirationPhotos(offset: -1) { totalCount } }'), 'invalid_parameters', 'offset');
    expectGraphQLError(await t.graphql('{ inspirationPhoto(id: "nope") { id } }'), 'invalid_id', 'id');
    const missing = await t.graphql('{ inspirationPhoto(id: "0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11") { id } }');
    expectGraphQLError(missing, 'inspiration_photo_not_found', 'id');
    expect(missing.body.data.inspirationPhoto).toBeNull();
  });
});
