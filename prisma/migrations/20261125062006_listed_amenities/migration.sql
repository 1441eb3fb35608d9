-- Listed venue amenities (issue 13, docs/performance.md "Scale"): an inverted index of the published venues' amenities
-- in slug order. A GIN index on Venue.amenities finds the rows, but it cannot count them without reading the rows
-- (20,051 venues with ocean-view lie on 12,494 of the table's 16,400 pages), and a rare amenity is found late in slug
-- order. This table answers a page and its exact count from its primary key alone. Written by
-- `npm run db:migration:create -- listed_amenities`; the trigger and backfill below are by hand.

-- CreateTable
CREATE TABLE "ListedVenueAmenity" (
    "amenity" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "venueId" UUID NOT NULL,

    CONSTRAINT "ListedVenueAmenity_pkey" PRIMARY KEY ("amenity","slug")
);

-- CreateIndex
CREATE INDEX "ListedVenueAmenity_venueId_idx" ON "ListedVenueAmenity"("venueId");

-- AddForeignKey
ALTER TABLE "ListedVenueAmenity" ADD CONSTRAINT "ListedVenueAmenity_venueId_fkey" FOREIGN KEY ("venueId") REFERENCES "Venue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The database keeps the table equal to the published venues' amenities, whatever writes Venue (the seed, psql, a
-- future admin surface): after an insert, or an update of what the table holds, the venue's rows are written again.
-- Deletes cascade through the foreign key. Duplicate and null amenities are dropped (the key is amenity + slug).
CREATE FUNCTION "list_venue_amenities"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "ListedVenueAmenity" WHERE "venueId" IN (OLD."id", NEW."id");
  END IF;
  IF NEW."published" THEN
    INSERT INTO "ListedVenueAmenity" ("amenity", "slug", "venueId")
    SELECT DISTINCT a, NEW."slug", NEW."id" FROM unnest(NEW."amenities") AS a WHERE a IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Venue_listed_amenities"
AFTER INSERT OR UPDATE OF "id", "slug", "published", "amenities" ON "Venue"
FOR EACH ROW EXECUTE FUNCTION "list_venue_amenities"();

-- Backfill: the catalogue already stored.
INSERT INTO "ListedVenueAmenity" ("amenity", "slug", "venueId")
SELECT DISTINCT a, v."slug", v."id" FROM "Venue" v, unnest(v."amenities") AS a WHERE v."published" AND a IS NOT NULL;
