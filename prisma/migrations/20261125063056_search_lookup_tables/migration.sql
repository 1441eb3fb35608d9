-- Lookup tables for venue search (issue 13, docs/performance.md "Scale"), so that an amenity or venue_type filter and
-- its exact total_count read indexes instead of rechecking every candidate venue row. Written by
-- `npm run db:migration:create -- search_lookup_tables`; the backfills, the triggers and their order are by hand.
--
-- * ListedVenueAmenity: the published venues' amenities, keyed by amenity and slug. A GIN index on Venue.amenities finds
--   the venues but cannot count them without reading each row (the 20,051 venues with ocean-view lie on 12,494 of the
--   table's 16,400 pages at 100,000 venues), and a rare amenity is found late in slug order.
-- * VenuePropertyType: the ~120 distinct property types. venue_type is a case-insensitive substring of the property
--   type: it is matched against these names, and the venues of the matching names are read from
--   (propertyType, published, …). A trigram index on Venue had to recheck every candidate row (10,706 villas on 8,400
--   pages).
-- * The covering indexes of a price band, a state and a venue type end in slug, so that an amenity filter beside them
--   joins ListedVenueAmenity by slug without reading the venue rows. (published, capacityMax) and (published, bedrooms)
--   stay narrow: they are what counts the whole catalogue (96,044 entries: 863 buffers with slug, 19 ms; narrow, 11 ms).
--
-- The database keeps both equal to Venue, whatever writes it (the seed, psql, a future admin surface): no writer of
-- Venue has to know about them.

-- CreateTable
CREATE TABLE "VenuePropertyType" (
    "name" TEXT NOT NULL,

    CONSTRAINT "VenuePropertyType_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ListedVenueAmenity" (
    "amenity" TEXT NOT NULL,
    "slug" TEXT NOT NULL,

    CONSTRAINT "ListedVenueAmenity_pkey" PRIMARY KEY ("amenity","slug")
);

-- Backfills: the catalogue already stored.
INSERT INTO "VenuePropertyType" ("name") SELECT DISTINCT "propertyType" FROM "Venue" WHERE "propertyType" IS NOT NULL;
INSERT INTO "ListedVenueAmenity" ("amenity", "slug")
SELECT DISTINCT a, v."slug" FROM "Venue" v, unnest(v."amenities") AS a WHERE v."published" AND a IS NOT NULL;

-- A venue may name a property type no venue had before: it is added before the row is written, so the foreign key
-- below always holds. A name no venue uses any more stays and matches nothing.
CREATE FUNCTION "add_venue_property_type"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."propertyType" IS NOT NULL THEN
    INSERT INTO "VenuePropertyType" ("name") VALUES (NEW."propertyType") ON CONFLICT DO NOTHING;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Venue_add_property_type"
BEFORE INSERT OR UPDATE OF "propertyType" ON "Venue"
FOR EACH ROW EXECUTE FUNCTION "add_venue_property_type"();

-- After an insert, or an update of what the table holds, the venue's listed amenities are written again (a rename has
-- already cascaded through the foreign key: both slugs are cleared). Deletes cascade. Duplicate and null amenities are
-- dropped (the key is amenity + slug).
CREATE FUNCTION "list_venue_amenities"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "ListedVenueAmenity" WHERE "slug" IN (OLD."slug", NEW."slug");
  END IF;
  IF NEW."published" THEN
    INSERT INTO "ListedVenueAmenity" ("amenity", "slug")
    SELECT DISTINCT a, NEW."slug" FROM unnest(NEW."amenities") AS a WHERE a IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Venue_listed_amenities"
AFTER INSERT OR UPDATE OF "slug", "published", "amenities" ON "Venue"
FOR EACH ROW EXECUTE FUNCTION "list_venue_amenities"();

-- DropIndex
DROP INDEX "Venue_propertyType_trgm_idx";

-- DropIndex
DROP INDEX "Venue_published_startingTotal_currency_capacityMax_bedrooms_idx";

-- DropIndex
DROP INDEX "Venue_stateSlug_published_startingTotal_currency_idx";

-- CreateIndex
CREATE INDEX "ListedVenueAmenity_slug_idx" ON "ListedVenueAmenity"("slug");

-- CreateIndex
CREATE INDEX "Venue_published_startingTotal_currency_capacityMax_bedrooms_idx" ON "Venue"("published", "startingTotal", "currency", "capacityMax", "bedrooms", "slug");

-- CreateIndex
CREATE INDEX "Venue_stateSlug_published_startingTotal_currency_capacityMa_idx" ON "Venue"("stateSlug", "published", "startingTotal", "currency", "capacityMax", "bedrooms", "slug");

-- CreateIndex
CREATE INDEX "Venue_propertyType_published_startingTotal_currency_capacit_idx" ON "Venue"("propertyType", "published", "startingTotal", "currency", "capacityMax", "bedrooms", "stateSlug", "slug");

-- AddForeignKey
ALTER TABLE "Venue" ADD CONSTRAINT "Venue_propertyType_fkey" FOREIGN KEY ("propertyType") REFERENCES "VenuePropertyType"("name") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ListedVenueAmenity" ADD CONSTRAINT "ListedVenueAmenity_slug_fkey" FOREIGN KEY ("slug") REFERENCES "Venue"("slug") ON DELETE CASCADE ON UPDATE CASCADE;
