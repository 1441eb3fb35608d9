-- Search indexes (issue 13, docs/performance.md "Scale"): every §4.1/§4.7 filter and sort, and its exact total_count,
-- reads an index on the 100,000-venue catalogue. Written by `npm run db:migration:create -- search_indexes`, then
-- edited by hand where Prisma's schema cannot say it: the pg_trgm extension, and NULLS LAST on the descending vendor
-- sorts (the services order by the column DESC NULLS LAST, then id; a plain DESC index sorts nulls first).

-- CreateExtension (PGlite: loaded by src/db/pglite.ts)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "Vendor_active_startingPrice_desc_id_idx" ON "Vendor"("active", "startingPrice" DESC NULLS LAST, "id");

-- CreateIndex
CREATE INDEX "Vendor_active_yearsInBusiness_desc_id_idx" ON "Vendor"("active", "yearsInBusiness" DESC NULLS LAST, "id");

-- CreateIndex
CREATE INDEX "Vendor_active_weddingsCompleted_desc_id_idx" ON "Vendor"("active", "weddingsCompleted" DESC NULLS LAST, "id");

-- CreateIndex
CREATE INDEX "Vendor_businessName_trgm_idx" ON "Vendor" USING GIN ("businessName" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Vendor_tagline_trgm_idx" ON "Vendor" USING GIN ("tagline" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Vendor_bio_trgm_idx" ON "Vendor" USING GIN ("bio" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Vendor_primaryCity_trgm_idx" ON "Vendor" USING GIN ("primaryCity" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Vendor_primaryState_trgm_idx" ON "Vendor" USING GIN ("primaryState" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Vendor_specialties_idx" ON "Vendor" USING GIN ("specialties");

-- CreateIndex
CREATE INDEX "Vendor_serviceAreas_idx" ON "Vendor" USING GIN ("serviceAreas");

-- CreateIndex
CREATE INDEX "Vendor_active_featured_serviceCategory_idx" ON "Vendor"("active", "featured", "serviceCategory");

-- CreateIndex
CREATE INDEX "Vendor_active_startingPrice_serviceCategory_idx" ON "Vendor"("active", "startingPrice", "serviceCategory");

-- CreateIndex
CREATE INDEX "Venue_published_startingTotal_currency_capacityMax_bedrooms_idx" ON "Venue"("published", "startingTotal", "currency", "capacityMax", "bedrooms");

-- CreateIndex
CREATE INDEX "Venue_stateSlug_published_startingTotal_currency_idx" ON "Venue"("stateSlug", "published", "startingTotal", "currency");

-- CreateIndex
CREATE INDEX "Venue_published_capacityMax_idx" ON "Venue"("published", "capacityMax");

-- CreateIndex
CREATE INDEX "Venue_published_bedrooms_idx" ON "Venue"("published", "bedrooms");

-- CreateIndex
CREATE INDEX "Venue_propertyType_trgm_idx" ON "Venue" USING GIN ("propertyType" gin_trgm_ops);
