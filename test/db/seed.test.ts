import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { CatalogueNotEmptyError, catalogueIsEmpty, seedCatalogue } from '../../src/db/seed/catalogue.js';
import { SlugRegistry } from '../../src/db/seed/slugs.js';
import { slugify } from '../../src/catalogue/slug.js';
import { startingTotalOf } from '../../src/db/seed/starting-total.js';
import { NAMED_TYPES } from '../../src/db/seed/venue-types.js';
import { NAMED_AMENITIES } from '../../src/db/seed/venue-amenities.js';
import { generateVenue } from '../../src/db/seed/venues.js';
import { createEmptyTestDatabase, createTestDatabase } from '../support/database.js';

type Prisma = Database['prisma'];

/** Every catalogue row, in a stable order, as plain JSON (dates as ISO strings). */
async function dumpCatalogue(prisma: Prisma): Promise<string> {
  const byId = { orderBy: { id: 'asc' as const } };
  return JSON.stringify({
    venues: await prisma.venue.findMany(byId),
    venuePhotos: await prisma.venuePhoto.findMany(byId),
    testimonials: await prisma.testimonial.findMany(byId),
    categories: await prisma.vendorCategory.findMany({ orderBy: { slug: 'asc' } }),
    vendors: await prisma.vendor.findMany(byId),
    vendorPhotos: await prisma.vendorPhoto.findMany(byId),
    rates: await prisma.exchangeRate.findMany({ orderBy: [{ base: 'asc' }, { rateDate: 'asc' }] }),
  });
}

describe('startingTotalOf', () => {
  it('adds cleaning, then service fee and tax on the subtotal, rounding half up', () => {
    expect(startingTotalOf({ weekdayBase: 4250, cleaningFee: 500, serviceFeePercent: 0, taxPercent: 13 })).toBe(5368);
    expect(startingTotalOf({ weekdayBase: 1000, cleaningFee: 0, serviceFeePercent: 10, taxPercent: 12.5 })).toBe(1225);
    // (4,250 + 500) × 1.13 = 5,367.5 and 100 × 1.005 = 100.5: exact halves round up.
    expect(startingTotalOf({ weekdayBase: 100, cleaningFee: null, serviceFeePercent: null, taxPercent: 0.5 })).toBe(101);
  });
});

describe('seedCatalogue determinism', () => {
  let a: Database;
  let b: Database;
  beforeAll(async () => {
    [a, b] = await Promise.all([createEmptyTestDatabase(), createEmptyTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('gives identical rows, ids included, in two fresh databases', async () => {
    expect(await catalogueIsEmpty(a.prisma)).toBe(true);
    const first = await seedCatalogue(a.prisma, { venues: 60, vendors: 60 });
    const second = await seedCatalogue(b.prisma, { venues: 60, vendors: 60 });
    expect({ ...first, elapsedMs: 0 }).toEqual({ ...second, elapsedMs: 0 });
    expect(first).toMatchObject({ venues: 60, vendors: 60, vendorCategories: 11, atomic: true });
    expect(await catalogueIsEmpty(a.prisma)).toBe(false);
    const [dumpA, dumpB] = [await dumpCatalogue(a.prisma), await dumpCatalogue(b.prisma)];
    expect(dumpA).toBe(dumpB);
  });

  it('stores exactly what the generator produced (the bulk insert maps every column)', async () => {
    const slugs = new SlugRegistry();
    const generated = Array.from({ length: 5 }, (_, i) => generateVenue(i, slugs));
    for (const { venue, photos, testimonials } of generated) {
      const stored = await a.prisma.venue.findUniqueOrThrow({ where: { id: venue.id! } });
      // A column the generator does not write (one added with no demo data yet) is stored empty.
      const unwritten = Object.fromEntries(
        Object.keys(stored)
          .filter((column) => !(column in venue))
          .map((column) => [column, null]),
      );
      expect(stored).toEqual({ ...unwritten, ...venue });
      const storedPhotos = await a.prisma.venuePhoto.findMany({ where: { venueId: venue.id! }, orderBy: { position: 'asc' } });
      expect(storedPhotos).toEqual(photos);
      const storedTestimonials = await a.prisma.testimonial.findMany({ where: { venueId: venue.id! } });
      expect(new Set(storedTestimonials.map((t) => JSON.stringify(t)))).toEqual(new Set(testimonials.map((t) => JSON.stringify(t))));
    }
  });

  it('refuses to seed a catalogue that is not empty', async () => {
    await expect(seedCatalogue(a.prisma, { venues: 1, vendors: 1 })).rejects.toBeInstanceOf(CatalogueNotEmptyError);
  });
});

describe('default catalogue coverage', () => {
  let db: Database;
  let prisma: Prisma;
  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = db.prisma;
  });
  afterAll(async () => {
    await db?.close();
  });

  it('has at least 1,500 published venues and a few unpublished ones', async () => {
    const published = await prisma.venue.count({ where: { published: true } });
    const unpublished = await prisma.venue.count({ where: { published: false } });
    expect(published).toBeGreaterThanOrEqual(1500);
    expect(unpublished).toBeGreaterThan(0);
    expect(unpublished / (published + unpublished)).toBeLessThan(0.08);
  });

  it('spreads venues over at least 18 US states and the five destination countries', async () => {
    const states = await prisma.venue.findMany({ where: { country: 'United States' }, distinct: ['stateSlug'], select: { stateSlug: true } });
    const usStates = states.map((s) => s.stateSlug);
    expect(usStates.length).toBeGreaterThanOrEqual(18);
    for (const s of [
      'california',
      'new-york',
      'texas',
      'florida',
      'michigan',
      'colorado',
      'north-carolina',
      'tennessee',
      'georgia',
      'utah',
      'new-jersey',
      'massachusetts',
      'pennsylvania',
      'illinois',
      'virginia',
      'washington',
      'arizona',
      'oregon',
    ]) {
      expect(usStates).toContain(s);
    }
    const countries = (await prisma.venue.findMany({ distinct: ['country'], select: { country: true } })).map((c) => c.country);
    expect(countries.sort()).toEqual(['Australia', 'Costa Rica', 'Ireland', 'Italy', 'Mexico', 'United States']);
    const italy = (await prisma.venue.findMany({ where: { country: 'Italy' }, distinct: ['stateSlug'], select: { stateSlug: true } })).map(
      (r) => r.stateSlug,
    );
    expect(italy.sort()).toEqual(['amalfi-coast', 'florence', 'lake-como', 'lazio', 'puglia', 'sicily', 'tuscany', 'umbria', 'veneto']);
  });

  it('uses path-like slugs of [a-z0-9-/] rooted in the US state or the country', async () => {
    const venues = await prisma.venue.findMany({ select: { slug: true, stateSlug: true, citySlug: true, country: true } });
    for (const v of venues) {
      expect(v.slug).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+){2,3}$/);
      const root = v.country === 'United States' ? v.stateSlug : `${v.country!.toLowerCase().replace(/ /g, '-')}/${v.stateSlug}`;
      expect(v.slug.startsWith(`${root}/${v.citySlug}/`)).toBe(true);
    }
    const vendors = await prisma.vendor.findMany({ select: { slug: true, serviceCategory: true, primaryStateSlug: true } });
    for (const v of vendors) expect(v.slug.startsWith(`${v.serviceCategory}/${v.primaryStateSlug}/`)).toBe(true);
  });

  it("gives every vendor its place's slug: the name's, which the state and city filters match", async () => {
    const vendors = await prisma.vendor.findMany({
      select: { primaryState: true, primaryStateSlug: true, primaryCity: true, primaryCitySlug: true },
    });
    for (const v of vendors) {
      expect(v.primaryStateSlug).toBe(v.primaryState === null ? null : slugify(v.primaryState));
      expect(v.primaryCitySlug).toBe(v.primaryCity === null ? null : slugify(v.primaryCity));
    }
  });

  it('has all 14 named venue types, each inside its property type text, and a few untyped venues', async () => {
    const rows = await prisma.venue.groupBy({ by: ['venueType', 'propertyType'], _count: { _all: true } });
    const types = new Set(rows.map((r) => r.venueType));
    for (const t of NAMED_TYPES) expect(types).toContain(t);
    expect(types).toContain(null);
    for (const r of rows) {
      if (r.venueType === null) expect(r.propertyType).toBeNull();
      else expect(r.propertyType!.toLowerCase()).toContain(r.venueType);
    }
  });

  it("keeps each venue's search words: searchHead its name, place and kind, the document those and its description", async () => {
    const [{ wrong, empty }] = await prisma.$queryRaw<Array<{ wrong: number; empty: number }>>`
      SELECT count(*) FILTER (WHERE "searchHead" IS DISTINCT FROM
               venue_search_head(name, city, state, "propertyType", "venueType", amenities)
             OR "searchDocument" IS DISTINCT FROM "searchHead" || venue_search_weighted(description, 'D'))::int AS wrong,
             count(*) FILTER (WHERE "searchHead" IS NULL OR length("searchHead") = 0)::int AS empty
      FROM "Venue"`;
    expect({ wrong, empty }).toEqual({ wrong: 0, empty: 0 });
    const [{ head }] = await prisma.$queryRaw<Array<{ head: string }>>`
      SELECT "searchHead"::text AS head FROM "Venue" WHERE name = 'Falcon Fields Hacienda'`;
    expect(head).toContain("'falcon':1A");
    expect(head).toContain("'creek':");
  });

  it('has the six named amenities, all lowercase kebab, with ocean-view only on coasts', async () => {
    const rows = await prisma.$queryRaw<Array<{ amenity: string }>>`SELECT DISTINCT unnest(amenities) AS amenity FROM "Venue"`;
    const amenities = rows.map((r) => r.amenity);
    for (const a of NAMED_AMENITIES) expect(amenities).toContain(a);
    for (const a of amenities) expect(a).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const inland = await prisma.venue.count({
      where: { amenities: { has: 'ocean-view' }, city: { in: ['Aspen', 'Nashville', 'Sedona', 'Perugia'] } },
    });
    expect(inland).toBe(0);
  });

  it('prices in USD, EUR only in euro countries, and AUD in Australia', async () => {
    const rows = await prisma.venue.groupBy({ by: ['country', 'currency'], _count: { _all: true } });
    const currencyOf = new Map(rows.map((r) => [r.country, r.currency]));
    expect(rows).toHaveLength(6);
    expect(Object.fromEntries(currencyOf)).toEqual({
      'United States': 'USD',
      Mexico: 'USD',
      'Costa Rica': 'USD',
      Italy: 'EUR',
      Ireland: 'EUR',
      Australia: 'AUD',
    });
  });

  it('stores a starting total that matches the formula, and no price at all for about 5%', async () => {
    const venues = await prisma.venue.findMany({
      select: {
        weekdayBase: true,
        weekendBase: true,
        extraNight: true,
        cleaningFee: true,
        serviceFeePercent: true,
        taxPercent: true,
        startingTotal: true,
        minNights: true,
      },
    });
    const unpriced = venues.filter((v) => v.weekdayBase === null);
    expect(unpriced.length / venues.length).toBeGreaterThan(0.02);
    expect(unpriced.length / venues.length).toBeLessThan(0.09);
    for (const v of unpriced) {
      expect([v.weekendBase, v.extraNight, v.cleaningFee, v.serviceFeePercent, v.taxPercent, v.startingTotal]).toEqual([
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    }
    for (const v of venues.filter((x) => x.weekdayBase !== null)) {
      expect(v.startingTotal).toBe(
        startingTotalOf({
          weekdayBase: v.weekdayBase!,
          cleaningFee: v.cleaningFee,
          serviceFeePercent: v.serviceFeePercent,
          taxPercent: v.taxPercent,
        }),
      );
      expect(v.weekendBase!).toBeGreaterThan(v.weekdayBase!);
      expect(v.minNights).toBeGreaterThanOrEqual(1);
      expect(v.minNights).toBeLessThanOrEqual(4);
    }
  });

  it('has 0 to 40 photos per venue in gallery order, matching totalPhotos and heroImage', async () => {
    const rows = await prisma.$queryRaw<
      Array<{
        id: string;
        totalPhotos: number;
        heroImage: string | null;
        n: number;
        maxPos: number | null;
        featured: number;
        firstUrl: string | null;
      }>
    >`
      SELECT v.id, v."totalPhotos", v."heroImage", count(p.id)::int AS n, max(p.position) AS "maxPos",
             count(*) FILTER (WHERE p."isFeatured")::int AS featured,
             min(p.url) FILTER (WHERE p.position = 0) AS "firstUrl"
      FROM "Venue" v LEFT JOIN "VenuePhoto" p ON p."venueId" = v.id GROUP BY v.id`;
    expect(rows.some((r) => r.n === 0)).toBe(true);
    for (const r of rows) {
      expect(r.n).toBeLessThanOrEqual(40);
      expect(r.totalPhotos).toBe(r.n);
      expect(r.heroImage).toBe(r.firstUrl);
      if (r.n > 0) {
        expect(r.maxPos).toBe(r.n - 1);
        expect(r.featured).toBeGreaterThanOrEqual(1);
        expect(r.featured).toBeLessThanOrEqual(3);
        expect(r.firstUrl).toBe(`https://cdn.wedding-venues.example/venues/${r.id}/0-medium.webp`);
      }
    }
  });

  it('has the 11 vendor categories, each with active vendors', async () => {
    const categories = await prisma.vendorCategory.findMany({
      orderBy: { position: 'asc' },
      include: { _count: { select: { vendors: { where: { active: true } } } } },
    });
    expect(categories.map((c) => c.slug)).toEqual([
      'photography',
      'videography',
      'florists',
      'catering',
      'wedding-planners',
      'music-and-entertainment',
      'hair-and-makeup',
      'officiants',
      'cakes-and-desserts',
      'rentals-and-decor',
      'transportation',
    ]);
    expect(categories.map((c) => c.name)).toContain('Music & Entertainment');
    for (const c of categories) expect(c._count.vendors).toBeGreaterThan(0);
  });

  it('has at least 1,200 vendors with links only on affiliate-only ones and distinct creation times', async () => {
    const vendors = await prisma.vendor.findMany({
      select: {
        isAffiliateOnly: true,
        affiliateLink: true,
        priceUnit: true,
        createdAt: true,
        featuredImageUrl: true,
        totalPhotos: true,
        active: true,
        _count: { select: { photos: true } },
      },
    });
    expect(vendors.length).toBeGreaterThanOrEqual(1200);
    const affiliates = vendors.filter((v) => v.isAffiliateOnly);
    expect(affiliates.length).toBeGreaterThan(0);
    for (const v of affiliates) expect(v.affiliateLink).toMatch(/^https:\/\//);
    for (const v of vendors.filter((x) => !x.isAffiliateOnly)) expect(v.affiliateLink).toBeNull();
    expect(new Set(vendors.map((v) => v.priceUnit))).toEqual(new Set(['per_person', 'per_event', 'per_hour', 'per_item', null]));
    expect(new Set(vendors.map((v) => v.createdAt.getTime())).size).toBe(vendors.length);
    expect(vendors.some((v) => !v.active)).toBe(true);
    for (const v of vendors) {
      expect(v.totalPhotos).toBe(v._count.photos);
      expect(v.totalPhotos).toBeLessThanOrEqual(15);
      if (v.featuredImageUrl)
        expect(v.featuredImageUrl).toMatch(/^https:\/\/cdn\.wedding-venues\.example\/vendors\/.+\/0-(medium\.webp|original\.jpg)$/);
    }
  });

  it('has daily USD→AUD and EUR→USD rates for 2025 through 2027', async () => {
    const days = (Date.UTC(2027, 11, 31) - Date.UTC(2025, 0, 1)) / 86_400_000 + 1;
    for (const [base, quote, low, high] of [
      ['USD', 'AUD', 1.5, 1.56],
      ['EUR', 'USD', 1.05, 1.12],
    ] as const) {
      const agg = await prisma.exchangeRate.aggregate({
        where: { base, quote },
        _count: { _all: true },
        _min: { rate: true, rateDate: true },
        _max: { rate: true, rateDate: true },
      });
      expect(agg._count._all).toBe(days);
      expect(agg._min.rateDate?.toISOString()).toBe('2025-01-01T00:00:00.000Z');
      expect(agg._max.rateDate?.toISOString()).toBe('2027-12-31T00:00:00.000Z');
      expect(agg._min.rate!).toBeGreaterThanOrEqual(low);
      expect(agg._max.rate!).toBeLessThanOrEqual(high);
    }
  });
});
