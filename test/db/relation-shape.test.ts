// A relation's shape (order and number of its rows) is declared once in Prisma's words and written into SQL by
// src/db/relation-shape.ts. The SQL of today's shapes must read exactly as it did when written by hand: a driver
// statement's name is a hash of its text (src/db/statement-names.ts), and its plan must not move. A form the writer
// cannot express, and a plan a driver read cannot serve, must throw where the schema and the statements are built.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isObjectType } from 'graphql';
import { Prisma } from '../../src/generated/prisma/client.js';
import { modelColumn, modelColumns } from '../../src/db/row-reader.js';
import { assertServes, orderBySql, relatedRowsSql, type RelatedModel, type RelationShape } from '../../src/db/relation-shape.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from '../../src/venues/venue-relations.js';
import { VENUE_READ, venueColumns, venueDetailStatement } from '../../src/venues/venue-rows.js';
import { getVendor } from '../../src/vendors/vendors.service.js';
import { getSchema } from '../../src/graphql/schema.js';
import { checkPlannedReads } from '../../src/graphql/planned-reads.js';

const PHOTO: RelatedModel = { name: 'VenuePhoto', columns: new Set(Object.values(Prisma.VenuePhotoScalarFieldEnum)) };

/** The relations as the hand-written SQL read them, whole rows. */
const PHOTOS = `(SELECT COALESCE(json_agg(p ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT * FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos`;
const TESTIMONIALS = `(SELECT COALESCE(json_agg(t ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials`;
const VENUE_COLUMNS = Object.values(Prisma.VenueScalarFieldEnum).map((c) => modelColumn(c, 'v', c === 'createdAt' || c === 'updatedAt'));

describe('the SQL of the declared relation shapes', () => {
  it('is the text the venue reads had before, for every column, a select list and the detail', () => {
    expect(venueColumns()).toBe([...VENUE_COLUMNS, PHOTOS, TESTIMONIALS].join(', '));
    expect(venueDetailStatement(undefined)).toBe(`SELECT ${venueColumns()} FROM "Venue" v WHERE v.slug = $1 AND v.published`);
    const selected = venueColumns({
      slug: true,
      photos: { ...VENUE_PHOTOS, select: { url: true, position: true } },
      testimonials: { ...VENUE_TESTIMONIALS, select: { rating: true, eventDate: true } },
    });
    expect(selected)
      .toBe(`v."slug", (SELECT COALESCE(json_agg(json_build_object('url', p."url", 'position', p."position") ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT * FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos, (SELECT COALESCE(json_agg(json_build_object('rating', t."rating", 'eventDate', t."eventDate") ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials`);
  });

  it('is the text the vendor detail had before', async () => {
    let sql = '';
    await getVendor('a-vendor', { readRows: async <T>(text: string) => ((sql = text), [{}] as T[]) });
    expect(sql).toBe(`SELECT ${modelColumns(Prisma.VendorScalarFieldEnum, 'v', ['createdAt'])},
  (SELECT COALESCE(json_agg(p ORDER BY p."isPrimary" DESC, p.position, p.id), '[]'::json)
     FROM (SELECT * FROM "VendorPhoto" WHERE "vendorId" = v.id ORDER BY "isPrimary" DESC, position, id LIMIT 5) p) AS photos
  FROM "Vendor" v WHERE v.slug = $1 AND v.active`);
  });

  it('writes each order form Prisma names: asc, desc, nulls first or last, one term or a list', () => {
    expect(orderBySql({ orderBy: { position: 'asc' } }, PHOTO)).toBe('position');
    expect(orderBySql({ orderBy: [{ isFeatured: 'desc' }, { position: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }] }, PHOTO, 'p')).toBe(
      'p."isFeatured" DESC, p.position NULLS FIRST, p.id',
    );
    const link = { foreignKey: 'venueId', parent: 'v.id' };
    expect(relatedRowsSql({ orderBy: { url: 'desc' } }, PHOTO, 'p', link)).toBe(`"VenuePhoto" p WHERE p."venueId" = v.id`);
    expect(relatedRowsSql({ orderBy: { url: 'desc' }, take: 2 }, PHOTO, 'p', link)).toBe(
      `(SELECT * FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY url DESC LIMIT 2) p`,
    );
  });

  it.each<[string, RelationShape]>([
    ["a related model's column", { orderBy: [{ venue: { name: 'asc' } }] }],
    ['a count', { orderBy: { _count: 'asc' } }],
    ['two columns in one term', { orderBy: { position: 'asc', id: 'asc' } }],
    ['a column the model lacks', { orderBy: { rank: 'asc' } }],
    ['an unknown nulls position', { orderBy: { position: { sort: 'asc', nulls: 'middle' } } }],
    ['no order', {}],
    ['an empty order', { orderBy: [] }],
    ['a filter', { orderBy: { id: 'asc' }, where: { isFeatured: true } } as RelationShape],
    ['a skip', { orderBy: { id: 'asc' }, skip: 1 } as RelationShape],
    ['a take of 0', { orderBy: { id: 'asc' }, take: 0 }],
    ['a negative take (the last rows)', { orderBy: { id: 'asc' }, take: -5 }],
  ])('refuses to write %s', (_form, shape) => {
    expect(() => relatedRowsSql(shape, PHOTO, 'p', { foreignKey: 'venueId', parent: 'v.id' })).toThrow(/Cannot write/);
  });
});

describe('a declaration the SQL cannot be written from', () => {
  afterEach(() => {
    vi.doUnmock('../../src/venues/venue-relations.js');
    vi.resetModules();
  });

  it('stops venue-rows.ts loading, so the server never starts with it', async () => {
    vi.resetModules();
    vi.doMock('../../src/venues/venue-relations.js', () => ({
      VENUE_PHOTOS: { orderBy: [{ venue: { name: 'asc' } }], take: 5 },
      VENUE_TESTIMONIALS,
    }));
    await expect(import('../../src/venues/venue-rows.js')).rejects.toThrow(/Cannot write VenuePhoto orderBy/);
  });
});

describe('a plan checked against the read that serves it', () => {
  const serves = (selection: Record<string, unknown>) => () => assertServes(VENUE_READ, selection, 'Venue.field');

  it('accepts columns, and relations in their declared shape with columns of their rows', () => {
    expect(
      serves({ slug: true, description: true, photos: { ...VENUE_PHOTOS, select: { url: true } }, testimonials: VENUE_TESTIMONIALS }),
    ).not.toThrow();
  });

  it('refuses what the read cannot write: an unknown name, a count, another shape, a relation beneath a relation', () => {
    expect(serves({ rank: true })).toThrow("Venue.field: a venue read cannot select 'rank'");
    expect(serves({ _count: { select: { photos: true } } })).toThrow(/cannot select '_count'/);
    expect(serves({ photos: { ...VENUE_PHOTOS, take: 6 } })).toThrow(/reads photos as .*"take":5.*, not .*"take":6/);
    expect(serves({ testimonials: { orderBy: { id: 'asc' } } })).toThrow(/reads testimonials as/);
    expect(serves({ photos: { ...VENUE_PHOTOS, select: { venue: true } } })).toThrow("cannot select 'venue' of VenuePhoto");
  });

  it('runs on every field of Venue and Vendor when the schema is built', () => {
    const schema = getSchema();
    const fields = ['Venue', 'Vendor'].map((name) => {
      const type = schema.getType(name);
      return isObjectType(type) ? Object.keys(type.getFields()).length : 0;
    });
    expect(checkPlannedReads(schema)).toBe(fields[0] + fields[1]);
  });
});
