-- A search by state or venue type with amenities beside them (state + bedrooms + pool, venue type + capacity + pool)
-- was counted by joining the filtered venues to ListedVenueAmenity by slug, or by intersecting the GIN index's bitmap
-- with the others and reading each venue's row: 10–23 ms on the 100,000-venue catalogue. With the amenities as the
-- last column of the state and venue type indexes, the count is one index-only range with the amenities tested in the
-- index entries (2.4–6.3 ms; docs/performance.md, "What this stop measured (stop 50)"). As the last key column they
-- never order anything: they are there to be read. The two indexes about double (12 and 14 MB to 27 and 28 MB there).

-- DropIndex
DROP INDEX "Venue_propertyType_published_startingTotal_currency_capacit_idx";

-- DropIndex
DROP INDEX "Venue_stateSlug_published_startingTotal_currency_capacityMa_idx";

-- CreateIndex
CREATE INDEX "Venue_stateSlug_published_startingTotal_currency_capacityMa_idx" ON "Venue"("stateSlug", "published", "startingTotal", "currency", "capacityMax", "bedrooms", "slug", "amenities");

-- CreateIndex
CREATE INDEX "Venue_propertyType_published_startingTotal_currency_capacit_idx" ON "Venue"("propertyType", "published", "startingTotal", "currency", "capacityMax", "bedrooms", "stateSlug", "slug", "amenities");
