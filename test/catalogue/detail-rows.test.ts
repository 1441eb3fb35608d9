// The venue and vendor details are read through the driver (getVenue, getVendor), with their photos and testimonials
// as JSON in the same row, not by Prisma's client. These tests hold each row equal to what Prisma reads with the
// relations' declared shapes (Venue.photos, Venue.testimonials, Vendor.photos), for every shown venue and vendor of the
// seed and for ones made to find the orders' edges (no position or date, ties, more than five photos); the process
// runs in a time zone far from UTC, so a timestamp read as local time would show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { getVenue } from '../../src/venues/venues.service.js';
import { getVendor } from '../../src/vendors/vendors.service.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from '../../src/venues/venue-relations.js';
import { VENDOR_PHOTOS } from '../../src/vendors/vendor-relations.js';
import { ApiError } from '../../src/errors/api-error.js';
import { testDatabaseKind } from '../support/database.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { runFarFromUtc } from '../support/time-zone.js';

let t: TestApp;

runFarFromUtc();
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The detail as Prisma reads it, with the relations' declared shapes (venue-relations.ts). */
const PRISMA_DETAIL = { include: { photos: VENUE_PHOTOS, testimonials: VENUE_TESTIMONIALS } } satisfies Prisma.VenueFindFirstArgs;

const detail = (slug: string) => getVenue(slug, t.db);
const prismaDetail = (slug: string) => t.db.prisma.venue.findFirst({ ...PRISMA_DETAIL, where: { slug, published: true } });

describe(`the venue detail read through the driver (${testDatabaseKind()})`, () => {
  it('is the row Prisma reads for every published venue: every column, the first five photos, the testimonials in order', async () => {
    const venues = await t.db.prisma.venue.findMany({ where: { published: true }, select: { slug: true }, orderBy: { slug: 'asc' } });
    expect(venues.length).toBeGreaterThan(0);
    let withTestimonials = 0;
    for (const { slug } of venues) {
      const row = await detail(slug);
      expect(row, slug).toEqual(await prismaDetail(slug));
      if (row.testimonials.length > 0) withTestimonials++;
    }
    expect(withTestimonials).toBeGreaterThan(0);
  });

  it('orders photos and testimonials as Prisma does at the edges: no position or date, ties, more than five photos', async () => {
    const {
      id: _id,
      slug: _slug,
      createdAt: _c,
      updatedAt: _u,
      ...columns
    } = await t.db.prisma.venue.findFirstOrThrow({ where: { published: true } });
    const venue = await t.db.prisma.venue.create({
      data: {
        ...columns,
        slug: 'test/edges/ordered-venue',
        createdAt: new Date('2024-02-29T23:30:00.123Z'),
        photos: { create: [null, 3, 1, 1, null, 0, 2].map((position, i) => ({ url: `https://img.test/${i}.webp`, position, isFeatured: i === 2 })) },
        testimonials: {
          create: [null, '2024-06-01', '2023-12-31', '2024-06-01', null].map((day, i) => ({
            guestName: `Guest ${i}`,
            rating: 4.5,
            review: `Review ${i}`,
            eventDate: day === null ? null : new Date(`${day}T00:00:00Z`),
          })),
        },
      },
    });
    const row = await detail(venue.slug);
    expect(row).toEqual(await prismaDetail(venue.slug));
    expect(row.photos.map((p) => p.position)).toEqual([0, 1, 1, 2, 3]);
    expect(row.testimonials.map((x) => x.eventDate?.toISOString() ?? null)).toEqual([
      '2024-06-01T00:00:00.000Z',
      '2024-06-01T00:00:00.000Z',
      '2023-12-31T00:00:00.000Z',
      null,
      null,
    ]);
    expect(row.createdAt?.toISOString()).toBe('2024-02-29T23:30:00.123Z');

    // An unpublished venue is not found, as any slug nobody has; impossible characters are invalid.
    await t.db.prisma.venue.update({ where: { id: venue.id }, data: { published: false } });
    await expect(detail(venue.slug)).rejects.toMatchObject({ code: 'venue_not_found', param: 'slug' });
    await expect(detail('nobody/has/this-slug')).rejects.toBeInstanceOf(ApiError);
    await expect(detail('no spaces')).rejects.toMatchObject({ code: 'invalid_slug', param: 'slug' });
  });

  it('reads the columns fields show when the plan names no other, and every column when it does', async () => {
    const [{ slug }] = await t.db.prisma.venue.findMany({ where: { published: true, testimonials: { some: {} } }, take: 1, select: { slug: true } });
    const unshown = ['published', 'citySlug', 'stateSlug', 'cleaningFee', 'serviceFeePercent', 'taxPercent', 'createdAt', 'updatedAt'];
    const full = (await prismaDetail(slug))!;
    const shown = Object.fromEntries(Object.entries(full).filter(([name]) => !unshown.includes(name)));
    // The REST detail's plan: the type's own columns, the long ones and both relations.
    const page = await getVenue(slug, t.db, {
      id: true,
      slug: true,
      name: true,
      description: true,
      photos: { select: { url: true } },
      testimonials: true,
    });
    expect(page).toEqual(shown);
    for (const name of unshown) expect(page, name).not.toHaveProperty(name);
    // A field selecting one of the others (none does today) gets the whole row, as does a read with no plan.
    expect(await getVenue(slug, t.db, { slug: true, createdAt: true })).toEqual(full);
    expect(await getVenue(slug, t.db)).toEqual(full);
  });

  it('is one statement, and the whole GraphQL detail with photos, testimonials and pricing adds none', async () => {
    const [{ slug }] = await t.db.prisma.venue.findMany({ where: { published: true, testimonials: { some: {} } }, take: 1, select: { slug: true } });
    expect(await t.statements(() => detail(slug))).toBe(1);
    const query = `query($slug: String!) { venue(slug: $slug) { slug name description totalPhotos photos { url position } testimonials { guestName eventDate } pricing { currency startingTotal { amount } } } }`;
    let body: unknown;
    const withPlan = await t.statements(async () => {
      body = (await t.graphql(query, { slug })).body;
    });
    const expected = await prismaDetail(slug);
    expect(body).toMatchObject({
      data: {
        venue: {
          slug,
          description: expected?.description,
          photos: expected?.photos.map((p) => ({ url: p.url, position: p.position })),
          testimonials: expected?.testimonials.map((x) => ({ guestName: x.guestName, eventDate: x.eventDate?.toISOString().slice(0, 10) ?? null })),
        },
      },
    });
    // Photos, testimonials and pricing load nothing more than the slug alone does (a fallback load would add one each).
    const slugOnly = await t.statements(() => t.graphql(`query($slug: String!) { venue(slug: $slug) { slug } }`, { slug }));
    expect(withPlan).toBe(slugOnly);
    expect(slugOnly).toBeGreaterThanOrEqual(1);
  });
});

/** The vendor detail as Prisma reads it, with the photos' declared shape (vendor-relations.ts). */
const PRISMA_VENDOR = { include: { photos: VENDOR_PHOTOS } } satisfies Prisma.VendorFindFirstArgs;
const vendorDetail = (slug: string) => getVendor(slug, t.db);
const prismaVendor = (slug: string) => t.db.prisma.vendor.findFirst({ ...PRISMA_VENDOR, where: { slug, active: true } });

describe(`the vendor detail read through the driver (${testDatabaseKind()})`, () => {
  it('is the row Prisma reads for every listed vendor: every column, policies as JSON, the first five photos', async () => {
    const vendors = await t.db.prisma.vendor.findMany({ where: { active: true }, select: { slug: true }, orderBy: { slug: 'asc' } });
    expect(vendors.length).toBeGreaterThan(0);
    let withPolicies = 0;
    for (const { slug } of vendors) {
      const row = await vendorDetail(slug);
      expect(row, slug).toEqual(await prismaVendor(slug));
      if (row.vendorPolicies !== null) withPolicies++;
    }
    expect(withPolicies).toBeGreaterThan(0);
  });

  it('orders photos as Prisma does at the edges (primary first, tied positions, more than five), and hides an inactive vendor', async () => {
    const {
      id: _id,
      slug: _slug,
      createdAt: _c,
      vendorPolicies,
      ...columns
    } = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true } });
    const vendor = await t.db.prisma.vendor.create({
      data: {
        ...columns,
        vendorPolicies: vendorPolicies ?? undefined,
        slug: 'test-edges-ordered-vendor',
        createdAt: new Date('2024-02-29T23:30:00.123Z'),
        photos: { create: [3, 1, 1, 0, 2, 1, 4].map((position, i) => ({ url: `https://img.test/v${i}.webp`, position, isPrimary: i === 6 })) },
      },
    });
    const row = await vendorDetail(vendor.slug);
    expect(row).toEqual(await prismaVendor(vendor.slug));
    expect(row.photos.map((p) => [p.isPrimary, p.position])).toEqual([
      [true, 4],
      [false, 0],
      [false, 1],
      [false, 1],
      [false, 1],
    ]);
    expect(row.createdAt.toISOString()).toBe('2024-02-29T23:30:00.123Z');

    await t.db.prisma.vendor.update({ where: { id: vendor.id }, data: { active: false } });
    await expect(vendorDetail(vendor.slug)).rejects.toMatchObject({ code: 'vendor_not_found', param: 'slug' });
    await expect(vendorDetail('x'.repeat(301))).rejects.toMatchObject({ code: 'vendor_not_found', param: 'slug' });
  });

  it('is one statement, and the whole GraphQL detail with photos and policies adds none', async () => {
    const [{ slug }] = await t.db.prisma.vendor.findMany({ where: { active: true, photos: { some: {} } }, take: 1, select: { slug: true } });
    expect(await t.statements(() => vendorDetail(slug))).toBe(1);
    const query = `query($slug: String!) { vendor(slug: $slug) { slug businessName bio totalPhotos photos { url } vendorPolicies { booking } } }`;
    let body: unknown;
    const withPlan = await t.statements(async () => {
      body = (await t.graphql(query, { slug })).body;
    });
    const expected = await prismaVendor(slug);
    expect(body).toMatchObject({ data: { vendor: { slug, bio: expected?.bio, photos: expected?.photos.map((p) => ({ url: p.url })) } } });
    const slugOnly = await t.statements(() => t.graphql(`query($slug: String!) { vendor(slug: $slug) { slug } }`, { slug }));
    expect(withPlan).toBe(slugOnly);
    expect(slugOnly).toBeGreaterThanOrEqual(1);
  });
});
