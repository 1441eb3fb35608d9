-- A search by words checks each venue the document's GIN index finds against its row: a venue row is ~1.6 kB, so the
-- 23,708 venues of q=mountain view on the 100,000-venue catalogue lie in 15,424 heap blocks, most of the statement's
-- time. VenueSearchWords holds what that check and relevance read, the slug, whether the venue is published and its
-- two word lists, in rows of ~400 bytes (the whole document out of line, the slug and searchHead kept in the row):
-- the same venues lie in 5,326 blocks (docs/performance.md, Discovery at scale). Words alone are searched here; beside
-- filters or a place, Venue's own index still serves (venues.queries.ts matchedVenues). A trigger copies the words
-- from Venue, which keeps computing them (migration venue_search_head). Written by hand below the table.

-- CreateTable
CREATE TABLE "VenueSearchWords" (
    "slug" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL,
    "searchHead" tsvector,
    "searchDocument" tsvector,

    CONSTRAINT "VenueSearchWords_pkey" PRIMARY KEY ("slug")
);

-- A row over 128 bytes has its largest out-of-line-able values moved out of line: the document. The slug and
-- searchHead (MAIN) stay in the row unless it could not fit a page otherwise.
ALTER TABLE "VenueSearchWords" SET (toast_tuple_target = 128);
ALTER TABLE "VenueSearchWords" ALTER COLUMN "slug" SET STORAGE MAIN, ALTER COLUMN "searchHead" SET STORAGE MAIN;

-- The venues already stored.
INSERT INTO "VenueSearchWords" ("slug", "published", "searchHead", "searchDocument")
SELECT "slug", "published", "searchHead", "searchDocument" FROM "Venue";

-- CreateIndex
CREATE INDEX "VenueSearchWords_searchDocument_idx" ON "VenueSearchWords" USING GIN ("searchDocument");

-- AddForeignKey
ALTER TABLE "VenueSearchWords" ADD CONSTRAINT "VenueSearchWords_slug_fkey" FOREIGN KEY ("slug") REFERENCES "Venue"("slug") ON DELETE CASCADE ON UPDATE CASCADE;

-- After an insert, or an update of anything the words are made of (Venue_search_document computed them before the
-- row was written), the venue's row here is written again. A renamed venue's old row is removed first, whether or not
-- the foreign key's cascade has renamed it yet. Deletes cascade.
CREATE FUNCTION "copy_venue_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."slug" <> NEW."slug" THEN
    DELETE FROM "VenueSearchWords" WHERE "slug" = OLD."slug";
  END IF;
  INSERT INTO "VenueSearchWords" AS w ("slug", "published", "searchHead", "searchDocument")
  VALUES (NEW."slug", NEW."published", NEW."searchHead", NEW."searchDocument")
  ON CONFLICT ("slug") DO UPDATE
  SET "published" = EXCLUDED."published", "searchHead" = EXCLUDED."searchHead", "searchDocument" = EXCLUDED."searchDocument";
  RETURN NULL;
END
$$;

CREATE TRIGGER "Venue_search_words"
AFTER INSERT OR UPDATE OF "slug", "published", "name", "city", "state", "propertyType", "venueType", "amenities", "description",
  "searchHead", "searchDocument" ON "Venue"
FOR EACH ROW EXECUTE FUNCTION "copy_venue_search_words"();

-- Answers read it: a write to it raises the catalogue generation (migration catalogue_generation_triggers).
CREATE TRIGGER "VenueSearchWords_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VenueSearchWords"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
