import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { slugify } from '../../src/catalogue/slug.js';

const LIST_FIELDS = [
  'slug',
  'business_name',
  'service_category',
  'tagline',
  'primary_city',
  'primary_state',
  'bio',
  'service_subcategories',
  'service_areas',
  'specialties',
  'starting_price',
  'price_unit',
  'years_in_business',
  'weddings_completed',
  'featured',
  'featured_image_url',
  'logo_url',
  'is_affiliate_only',
  'affiliate_link',
  'url',
].sort();
const DETAIL_EXTRA = [
  'photos',
  'total_photos',
  'website',
  'instagram',
  'facebook',
  'tiktok',
  'pricing_structure',
  'portfolio_description',
  'vendor_policies',
  'average_rating',
  'review_count',
];
const SORTS = ['newest', 'price_low_to_high', 'price_high_to_low', 'experience', 'weddings_completed'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Item = Record<string, any>;
async function allPages(query: string): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let total = -1;
  for (let i = 0; i < 100; i++) {
    const res = await t.rest(`/api/v1/vendors?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    total = res.body.pagination.total_count;
    cursor = res.body.pagination.next_cursor;
    if (!cursor) break;
  }
  return { items, total };
}

describe('GET /api/v1/vendors', () => {
  it('lists active vendors newest first with every §2.8 field, pagination and category_stats', async () => {
    const res = await t.rest('/api/v1/vendors');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    for (const v of res.body.data) {
      expect(Object.keys(v).sort()).toEqual(LIST_FIELDS);
      expect(v.logo_url).toBeNull();
      expect(v.url).toBe(`http://api.test/vendors/${v.slug}`);
      if (!v.is_affiliate_only) expect(v.affiliate_link).toBeNull();
    }
    const active = await t.db.prisma.vendor.count({ where: { active: true } });
    expect(res.body.pagination).toEqual({ has_more: true, next_cursor: expect.any(String), total_count: active });
    const stats = res.body.category_stats;
    expect(Object.keys(stats)).toHaveLength(11);
    expect(Object.values(stats).reduce((a: number, b) => a + (b as number), 0)).toBe(active);
    const newest = await t.db.prisma.vendor.findMany({
      where: { active: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: 20,
      select: { slug: true },
    });
    expect(res.body.data.map((v: Item) => v.slug)).toEqual(newest.map((v) => v.slug));
  });

  it('sorts by every sort_by value with nulls last, across pages, without duplicates', async () => {
    for (const sort of SORTS) {
      const { items, total } = await allPages(`sort_by=${sort}&category=catering`);
      expect(items).toHaveLength(total);
      expect(new Set(items.map((v) => v.slug)).size).toBe(items.length);
      const key = {
        newest: null,
        price_low_to_high: 'starting_price',
        price_high_to_low: 'starting_price',
        experience: 'years_in_business',
        weddings_completed: 'weddings_completed',
      }[sort];
      if (!key) continue;
      const values = items.map((v) => v[key] as number | null);
      const firstNull = values.indexOf(null);
      const nonNull = (firstNull === -1 ? values : values.slice(0, firstNull)) as number[];
      if (firstNull !== -1) expect(values.slice(firstNull).every((v) => v === null)).toBe(true);
      const sorted = [...nonNull].sort((a, b) => (sort === 'price_low_to_high' ? a - b : b - a));
      expect(nonNull).toEqual(sorted);
    }
  });

  it('refuses an unknown sort_by or category naming the allowed values', async () => {
    const sort = await t.rest('/api/v1/vendors?sort_by=cheapest');
    expectRestError(sort, 400, 'invalid_parameters', 'sort_by');
    for (const s of SORTS) expect(sort.body.error.message).toContain(s);
    const category = await t.rest('/api/v1/vendors?category=jugglers');
    expectRestError(category, 400, 'invalid_parameters', 'category');
    expect(category.body.error.message).toContain('photography');
    for (const [query, param] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['price_min=-5', 'price_min'],
      ['price_min=10&price_max=1', 'price_max'],
      ['featured=yes', 'featured'],
      ['search=', 'search'],
      ['flavour=x', 'flavour'],
    ]) {
      expectRestError(await t.rest(`/api/v1/vendors?${query}`), 400, 'invalid_parameters', param);
    }
  });

  it('filters by category (slug or name), state, city, location, price, featured and search', async () => {
    const photo = await allPages('category=Photography');
    expect(photo.items.every((v) => v.service_category === 'photography')).toBe(true);
    expect(photo.total).toBe(await t.db.prisma.vendor.count({ where: { active: true, serviceCategory: 'photography' } }));

    const sample = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, primaryState: { not: null }, primaryCity: { not: null } } });
    const byState = await allPages(`state=${encodeURIComponent(sample.primaryState!)}`);
    expect(byState.items.every((v) => v.primary_state === sample.primaryState)).toBe(true);
    const byCity = await allPages(`city=${encodeURIComponent(sample.primaryCitySlug!)}`);
    expect(byCity.items.every((v) => v.primary_city === sample.primaryCity)).toBe(true);
    const byLocation = await allPages(`location=${encodeURIComponent(sample.primaryCity!.toUpperCase())}`);
    expect(byLocation.items.map((v) => v.slug)).toContain(sample.slug);

    const priced = await allPages('price_min=500&price_max=2000');
    expect(priced.items.length).toBeGreaterThan(0);
    expect(priced.items.every((v) => v.starting_price !== null && v.starting_price >= 500 && v.starting_price <= 2000)).toBe(true);

    const featured = await allPages('featured=true');
    expect(featured.items.length).toBeGreaterThan(0);
    expect(featured.items.every((v) => v.featured === true)).toBe(true);
    const notFeatured = await allPages('featured=false');
    expect(notFeatured.items.every((v) => v.featured !== true)).toBe(true);
    expect(featured.total + notFeatured.total).toBe(await t.db.prisma.vendor.count({ where: { active: true } }));

    const word = sample.businessName.split(' ')[0];
    const searched = await allPages(`search=${encodeURIComponent(word.toLowerCase())}`);
    expect(searched.items.map((v) => v.slug)).toContain(sample.slug);
  });

  it('finds a state or city by its name in any case, with or without accents, or by its slug, on both surfaces', async () => {
    const count = async (query: string) => (await t.rest(`/api/v1/vendors?limit=1&${query}`)).body.pagination.total_count as number;
    const accented = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, primaryState: { contains: 'á' } } });
    const name = accented.primaryState!;
    const expected = await t.db.prisma.vendor.count({ where: { active: true, primaryStateSlug: accented.primaryStateSlug } });
    expect(expected).toBeGreaterThan(0);
    for (const state of [name, name.toUpperCase(), name.normalize('NFD').replace(/[\u0300-\u036f]/g, ''), accented.primaryStateSlug!]) {
      expect(await count(`state=${encodeURIComponent(state)}`), state).toBe(expected);
      const gql = await t.graphql('query($s: String) { vendors(state: $s) { totalCount } }', { s: state });
      expect(gql.body.data.vendors.totalCount, state).toBe(expected);
    }
    const city = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, primaryCity: { contains: ' ' } } });
    const inCity = await t.db.prisma.vendor.count({ where: { active: true, primaryCitySlug: city.primaryCitySlug } });
    for (const name of [city.primaryCity!, city.primaryCity!.toLowerCase(), city.primaryCitySlug!])
      expect(await count(`city=${encodeURIComponent(name)}`), name).toBe(inCity);
  });

  it('matches state, city, location and search text as written: % and _ are characters, not wildcards, on both surfaces', async () => {
    const both = async (filter: string, value: string) => {
      const rest = await allPages(`${filter}=${encodeURIComponent(value)}`);
      const gql = await t.graphql(`query($v: String) { vendors(${filter}: $v, first: 100) { totalCount nodes { slug } } }`, { v: value });
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(gql.body.data.vendors.totalCount, `${filter}=${value}`).toBe(rest.total);
      return rest.items.map((v) => v.slug).sort();
    };
    for (const filter of ['state', 'city', 'location', 'search'])
      for (const value of ['%', '_', '%a%', 'N_w', '\\']) expect(await both(filter, value)).toEqual([]);

    // A vendor whose city and name hold the characters is found by them, and only by them.
    const sample = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true }, orderBy: { slug: 'asc' } });
    await t.db.prisma.vendor.update({
      where: { id: sample.id },
      data: { primaryCity: 'Port_Zeta 100%', primaryCitySlug: slugify('Port_Zeta 100%'), businessName: 'Fifty% Off_Studio' },
    });
    expect(await both('city', 'port_zeta 100%')).toEqual([sample.slug]);
    expect(await both('location', 'a 100%')).toEqual([sample.slug]);
    expect(await both('search', 'y% off_s')).toEqual([sample.slug]);
    expect(await both('search', 'y_ off')).toEqual([]);
    expect(await both('location', 'port%zeta')).toEqual([]);
  });

  it('never lists inactive vendors', async () => {
    const inactive = await t.db.prisma.vendor.findMany({ where: { active: false }, select: { slug: true } });
    expect(inactive.length).toBeGreaterThan(0);
    const { items } = await allPages('sort_by=newest');
    const listed = new Set(items.map((v) => v.slug));
    for (const v of inactive) expect(listed.has(v.slug)).toBe(false);
  });
});

describe('GET /api/v1/vendors/categories', () => {
  it('lists the 11 categories with active vendor counts', async () => {
    const res = await t.rest('/api/v1/vendors/categories');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(11);
    for (const c of res.body.data) {
      expect(Object.keys(c).sort()).toEqual(['name', 'slug', 'vendor_count']);
      expect(c.vendor_count).toBe(await t.db.prisma.vendor.count({ where: { active: true, serviceCategory: c.slug } }));
    }
    const gql = await t.graphql('{ vendorCategories { name slug vendorCount } }');
    expect(gql.body.data.vendorCategories).toEqual(camelKeys(res.body.data));
    // The key lookup and one statement for the categories with their counts, on both surfaces.
    expect(await t.statements(() => t.rest('/api/v1/vendors/categories'))).toBe(2);
    expect(await t.statements(() => t.graphql('{ vendorCategories { name slug vendorCount } }'))).toBe(2);
  });
});

describe('GET /api/v1/vendors/{slug}', () => {
  it('returns every §2.9 field with at most 5 photos, primary first', async () => {
    const vendor = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, totalPhotos: { gt: 5 } }, include: { photos: true } });
    const res = await t.rest(`/api/v1/vendors/${encodeURIComponent(vendor.slug)}`);
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...LIST_FIELDS, ...DETAIL_EXTRA].sort());
    expect(d.photos).toHaveLength(5);
    const primary = vendor.photos.find((p) => p.isPrimary);
    if (primary) expect(d.photos[0].url).toBe(primary.url);
    for (const p of d.photos) expect(Object.keys(p).sort()).toEqual(['alt_text', 'category', 'url']);
    expect(d.total_photos).toBe(vendor.photos.length);
    if (d.vendor_policies) expect(Object.keys(d.vendor_policies).sort()).toEqual(['booking', 'cancellation', 'insurance', 'payment', 'timeline']);
    const gql = await t.graphql(
      `query($s: String!) { vendor(slug: $s) { slug businessName photos { url altText } totalPhotos vendorPolicies { booking } averageRating reviewCount } }`,
      { s: vendor.slug },
    );
    expect(gql.body.data.vendor).toMatchObject({
      slug: d.slug,
      businessName: d.business_name,
      totalPhotos: d.total_photos,
      averageRating: d.average_rating,
      reviewCount: d.review_count,
    });
  });

  it('shows affiliate links only for affiliate-only vendors', async () => {
    const affiliate = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, isAffiliateOnly: true } });
    const d = (await t.rest(`/api/v1/vendors/${encodeURIComponent(affiliate.slug)}`)).body.data;
    expect(d.is_affiliate_only).toBe(true);
    expect(d.affiliate_link).toMatch(/^https:\/\//);
  });

  it('answers vendor_not_found for unknown and inactive vendors, on both surfaces', async () => {
    const inactive = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: false } });
    for (const slug of ['photography/texas/nobody', inactive.slug]) {
      expectRestError(await t.rest(`/api/v1/vendors/${encodeURIComponent(slug)}`), 404, 'vendor_not_found', 'slug');
      expectGraphQLError(await t.graphql('query($s: String!) { vendor(slug: $s) { slug } }', { s: slug }), 'vendor_not_found', 'slug');
    }
  });
});

describe('GraphQL vendors', () => {
  it('returns the same page, totals and category stats as REST', async () => {
    const rest = await t.rest('/api/v1/vendors?category=florists&sort_by=price_low_to_high&limit=10');
    const gql =
      await t.graphql(`{ vendors(category: "florists", sortBy: PRICE_LOW_TO_HIGH, first: 10) { totalCount categoryStats pageInfo { hasNextPage endCursor }
      nodes { slug businessName serviceCategory startingPrice priceUnit featured isAffiliateOnly affiliateLink url } } }`);
    const page = gql.body.data.vendors;
    expect(page.totalCount).toBe(rest.body.pagination.total_count);
    expect(page.categoryStats).toEqual(rest.body.category_stats);
    expect(page.pageInfo.endCursor).toBe(rest.body.pagination.next_cursor);
    expect(page.nodes.map((n: Item) => n.slug)).toEqual(rest.body.data.map((v: Item) => v.slug));
    expectGraphQLError(await t.graphql('{ vendors(sortBy: "cheapest") { totalCount } }'), 'invalid_parameters', 'sortBy');
    expectGraphQLError(await t.graphql('{ vendors(first: 101) { totalCount } }'), 'invalid_parameters', 'first');
  });

  it('reads total_count off category_stats when both are asked for: one statement fewer, the same exact total', async () => {
    // The state with the fewest listed vendors, so that some category has none there (the facet has no entry for it).
    const states = await t.db.prisma.vendor.groupBy({
      by: ['primaryState'],
      where: { active: true, primaryState: { not: null } },
      _count: { _all: true },
    });
    const state = states.sort((a, b) => a._count._all - b._count._all)[0].primaryState!;
    const inState = { active: true, primaryStateSlug: slugify(state) };
    const present = (await t.db.prisma.vendor.findMany({ where: inState, select: { serviceCategory: true } })).map((v) => v.serviceCategory);
    const absent = (await t.db.prisma.vendorCategory.findMany({ select: { slug: true } })).map((c) => c.slug).find((c) => !present.includes(c));
    expect(absent).toBeDefined();
    for (const category of [undefined, present[0], absent]) {
      const query = `state=${encodeURIComponent(state)}${category ? `&category=${category}` : ''}`;
      const expected = await t.db.prisma.vendor.count({ where: { ...inState, ...(category ? { serviceCategory: category } : {}) } });
      const rest = await t.rest(`/api/v1/vendors?${query}`);
      expect(rest.body.pagination.total_count, query).toBe(expected);
      const gql = await t.graphql('query($s: String, $c: String) { vendors(state: $s, category: $c) { totalCount categoryStats } }', {
        s: state,
        ...(category ? { c: category } : {}),
      });
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(gql.body.data.vendors.totalCount, query).toBe(expected);
      // The key lookup, the page, the facet (and the category list a category is checked against): no count of its own.
      expect(await t.statements(() => t.rest(`/api/v1/vendors?${query}`)), query).toBe(category ? 4 : 3);
    }
    // GraphQL: totalCount alone is counted (key, page, count); beside categoryStats it is read off the facet (key, page, facet).
    expect(await t.statements(() => t.graphql(`{ vendors { totalCount } }`))).toBe(3);
    expect(await t.statements(() => t.graphql(`{ vendors { totalCount categoryStats } }`))).toBe(3);
  });

  it('keeps SQL statements flat for 20 vendors with photos', async () => {
    const twenty = await t.statements(() => t.graphql('{ vendors(first: 20) { totalCount nodes { slug photos { url } } } }'));
    const hundred = await t.statements(() => t.graphql('{ vendors(first: 100) { totalCount nodes { slug photos { url } } } }'));
    expect(twenty).toBeLessThanOrEqual(3);
    expect(hundred).toBe(twenty);
  });
});
