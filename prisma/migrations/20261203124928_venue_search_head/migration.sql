-- Relevance without the description: `searchHead` holds the venue's name, place and kind words (weights A, B and C of
-- searchDocument, which adds the description's as D). It is small enough to stay in the row, where the whole document
-- is stored compressed out of line and had to be read and decompressed for each match to rank it
-- (venues.queries.ts relevance). Kept by the same row trigger; written by hand below the column.

-- AlterTable
ALTER TABLE "Venue" ADD COLUMN     "searchHead" tsvector;

-- The weighted words of a venue's name (A), place (B) and kind (C): the trigger's and the backfill's one definition.
CREATE FUNCTION "venue_search_head"(name TEXT, city TEXT, state TEXT, property_type TEXT, venue_type TEXT, amenities TEXT[])
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT "venue_search_weighted"(name, 'A')
      || "venue_search_weighted"(concat_ws(' ', city, state), 'B')
      || "venue_search_weighted"(concat_ws(' ', property_type, venue_type, array_to_string(amenities, ' ')), 'C')
$$;

CREATE OR REPLACE FUNCTION "venue_search_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchHead" := "venue_search_head"(NEW."name", NEW."city", NEW."state", NEW."propertyType", NEW."venueType", NEW."amenities");
  NEW."searchDocument" := NEW."searchHead" || "venue_search_weighted"(NEW."description", 'D');
  RETURN NEW;
END
$$;

-- The words the catalogue already has are unchanged: the search terms' statement trigger has nothing to add.
ALTER TABLE "Venue" DISABLE TRIGGER "Venue_search_terms_updated";
UPDATE "Venue" SET "searchHead" = "venue_search_head"("name", "city", "state", "propertyType", "venueType", "amenities");
ALTER TABLE "Venue" ENABLE TRIGGER "Venue_search_terms_updated";
