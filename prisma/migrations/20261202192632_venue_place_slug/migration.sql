-- DropIndex
DROP INDEX "Venue_published_latitude_longitude_idx";

-- CreateIndex
CREATE INDEX "Venue_published_latitude_longitude_slug_idx" ON "Venue"("published", "latitude", "longitude", "slug");
