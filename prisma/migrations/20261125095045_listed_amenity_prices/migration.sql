-- Each listed amenity carries its venue's currency and startingTotal (issue 13, docs/performance.md "Scale"), so that one
-- amenity with a price band is counted from (amenity, startingTotal) and (amenity, currency, startingTotal) alone
-- (venues.service.ts priceBandCount) instead of joining the amenity's venues to the band's: at 100,000 venues, pool
-- with a 5,000–9,000 band hash-joined 35,763 listed venues with 23,679 priced ones. Written by
-- `npm run db:migration:create -- listed_amenity_prices`; the backfill and the trigger are by hand.

-- AlterTable: added empty, filled from Venue, then required.
ALTER TABLE "ListedVenueAmenity" ADD COLUMN     "currency" TEXT,
ADD COLUMN     "startingTotal" INTEGER;

UPDATE "ListedVenueAmenity" l SET "currency" = v."currency", "startingTotal" = v."startingTotal"
FROM "Venue" v WHERE v."slug" = l."slug";

ALTER TABLE "ListedVenueAmenity" ALTER COLUMN "currency" SET NOT NULL;

-- The trigger of migration 20261125063056_search_lookup_tables, writing the price too, and run again when the price
-- changes.
CREATE OR REPLACE FUNCTION "list_venue_amenities"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "ListedVenueAmenity" WHERE "slug" IN (OLD."slug", NEW."slug");
  END IF;
  IF NEW."published" THEN
    INSERT INTO "ListedVenueAmenity" ("amenity", "slug", "currency", "startingTotal")
    SELECT DISTINCT a, NEW."slug", NEW."currency", NEW."startingTotal" FROM unnest(NEW."amenities") AS a WHERE a IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER "Venue_listed_amenities" ON "Venue";
CREATE TRIGGER "Venue_listed_amenities"
AFTER INSERT OR UPDATE OF "slug", "published", "amenities", "currency", "startingTotal" ON "Venue"
FOR EACH ROW EXECUTE FUNCTION "list_venue_amenities"();

-- CreateIndex
CREATE INDEX "ListedVenueAmenity_amenity_startingTotal_idx" ON "ListedVenueAmenity"("amenity", "startingTotal");

-- CreateIndex
CREATE INDEX "ListedVenueAmenity_amenity_currency_startingTotal_idx" ON "ListedVenueAmenity"("amenity", "currency", "startingTotal");
