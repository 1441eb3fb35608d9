import type { Prisma } from '../generated/prisma/client.js';

/**
 * A vendor's photos as Vendor.photos shows them, declared once: the field's `query`, the detail's SQL
 * (vendors.queries.ts, via src/db/relation-shape.ts) and the Prisma read tests compare with. At most 5, primary first,
 * then by position, ties by id.
 */
export const VENDOR_PHOTOS = {
  orderBy: [{ isPrimary: 'desc' }, { position: 'asc' }, { id: 'asc' }],
  take: 5,
} satisfies Prisma.VendorPhotoFindManyArgs;
