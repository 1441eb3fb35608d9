-- Words alone in slug order read no weights: they are matched, paged and counted here, in rows of the slug, whether
-- the venue is published and a pointer to its document stored out of line (~50 bytes, a ninth of VenueSearchWords'
-- rows, which keep searchHead in the row for relevance). On the 100,000-venue catalogue the 23,708 venues of
-- q=mountain view lie in 476 heap blocks here against 5,323 there (docs/performance.md, Discovery at scale). The
-- same trigger as VenueSearchWords' copies it from Venue; written by hand below the table.

-- CreateTable
CREATE TABLE "VenueSearchDocument" (
    "slug" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL,
    "searchDocument" tsvector,

    CONSTRAINT "VenueSearchDocument_pkey" PRIMARY KEY ("slug")
);

-- A row over 128 bytes has its document moved out of line; the slug stays in the row.
ALTER TABLE "VenueSearchDocument" SET (toast_tuple_target = 128);
ALTER TABLE "VenueSearchDocument" ALTER COLUMN "slug" SET STORAGE MAIN;

-- The venues already stored, in slug order: a page walked in slug order then reads neighbouring rows.
INSERT INTO "VenueSearchDocument" ("slug", "published", "searchDocument")
SELECT "slug", "published", "searchDocument" FROM "Venue" ORDER BY "slug";

-- CreateIndex
CREATE INDEX "VenueSearchDocument_searchDocument_idx" ON "VenueSearchDocument" USING GIN ("searchDocument");

-- AddForeignKey
ALTER TABLE "VenueSearchDocument" ADD CONSTRAINT "VenueSearchDocument_slug_fkey" FOREIGN KEY ("slug") REFERENCES "Venue"("slug") ON DELETE CASCADE ON UPDATE CASCADE;

-- The trigger Venue_search_words writes both copies, each as migration venue_search_words says.
CREATE OR REPLACE FUNCTION "copy_venue_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."slug" <> NEW."slug" THEN
    DELETE FROM "VenueSearchWords" WHERE "slug" = OLD."slug";
    DELETE FROM "VenueSearchDocument" WHERE "slug" = OLD."slug";
  END IF;
  INSERT INTO "VenueSearchWords" AS w ("slug", "published", "searchHead", "searchDocument")
  VALUES (NEW."slug", NEW."published", NEW."searchHead", NEW."searchDocument")
  ON CONFLICT ("slug") DO UPDATE
  SET "published" = EXCLUDED."published", "searchHead" = EXCLUDED."searchHead", "searchDocument" = EXCLUDED."searchDocument";
  INSERT INTO "VenueSearchDocument" AS d ("slug", "published", "searchDocument")
  VALUES (NEW."slug", NEW."published", NEW."searchDocument")
  ON CONFLICT ("slug") DO UPDATE
  SET "published" = EXCLUDED."published", "searchDocument" = EXCLUDED."searchDocument";
  RETURN NULL;
END
$$;

-- Answers read it: a write to it raises the catalogue generation (migration catalogue_generation_triggers).
CREATE TRIGGER "VenueSearchDocument_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VenueSearchDocument"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
