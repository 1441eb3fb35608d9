import type { Prisma } from '../generated/prisma/client.js';

/**
 * The related rows a venue shows, declared once: Venue.photos and Venue.testimonials take them as their `query`,
 * venue-rows.ts writes its SQL from them (src/db/relation-shape.ts), and tests read Prisma with them.
 */

/** The first 5 photos in gallery order (§4.2); a photo without a position comes last, ties by id. */
export const VENUE_PHOTOS = { orderBy: [{ position: 'asc' }, { id: 'asc' }], take: 5 } satisfies Prisma.VenuePhotoFindManyArgs;

/** Every testimonial, newest event first; one without a date comes last, ties by id. */
export const VENUE_TESTIMONIALS = {
  orderBy: [{ eventDate: { sort: 'desc', nulls: 'last' } }, { id: 'asc' }],
} satisfies Prisma.TestimonialFindManyArgs;
