-- sort=capacity_desc reads its page from this index (venues.queries.ts orderedSearch): most guests first, unknown
-- capacity last, then slug. Written by `prisma migrate diff`, then NULLS LAST added by hand (Prisma's schema cannot
-- say it), as the search orders.

-- CreateIndex
CREATE INDEX "Venue_published_capacityMax_slug_idx" ON "Venue"("published", "capacityMax" DESC NULLS LAST, "slug");
