-- Slug order with the columns a venue search filters on, but the state and city: a filtered page walks slug order and
-- tests each entry in the index alone, then reads only the rows of its page (venues.service.ts venueSearch). It
-- replaces (published, slug), which made each tested venue's row be read: venue_type=castle read 6,376 rows to find
-- its 21 on the 100,000-venue catalogue (EXPLAIN 39.6 ms for that walk, 4.5 ms over this index; docs/performance.md,
-- "What this stop measured (stop 50)"). After the unique slug the other columns never order anything. Slugs begin
-- with the state and city, so those stay out: with them here the planner walked slug order to reach Texas (16 ms)
-- instead of reading (stateSlug, slug).

-- DropIndex
DROP INDEX "Venue_published_slug_idx";

-- CreateIndex
CREATE INDEX "Venue_published_slug_propertyType_capacityMax_bedrooms_star_idx" ON "Venue"("published", "slug", "propertyType", "capacityMax", "bedrooms", "startingTotal", "currency", "amenities");
