-- Relevance without the description: `searchHead` holds the venue's name, place and kind words (weights A, B and C of
-- searchDocument, which adds the description's as D). It is small enough to stay in the row, where the whole document
-- is stored compressed out of line and had to be read and decompressed for each match to rank it
-- (venues.queries.ts relevance). Kept by the same row trigger; written by hand below the column.

-- AlterTable
ALTER TABLE "Venue" ADD COLUMN     "searchHead" tsvector;

CREATE OR REPLACE FUNCTION "venue_search_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchHead" :=
       "venue_search_weighted"(NEW."name", 'A')
    || "venue_search_weighted"(concat_ws(' ', NEW."city", NEW."state"), 'B')
    || "venue_search_weighted"(concat_ws(' ', NEW."propertyType", NEW."venueType", array_to_string(NEW."amenities", ' ')), 'C');
  NEW."searchDocument" := NEW."searchHead" || "venue_search_weighted"(NEW."description", 'D');
  RETURN NEW;
END
$$;

-- The words the catalogue already has are unchanged: the search terms' statement trigger has nothing to add.
ALTER TABLE "Venue" DISABLE TRIGGER "Venue_search_terms_updated";
UPDATE "Venue" SET "searchHead" =
       "venue_search_weighted"("name", 'A')
    || "venue_search_weighted"(concat_ws(' ', "city", "state"), 'B')
    || "venue_search_weighted"(concat_ws(' ', "propertyType", "venueType", array_to_string("amenities", ' ')), 'C');
ALTER TABLE "Venue" ENABLE TRIGGER "Venue_search_terms_updated";
