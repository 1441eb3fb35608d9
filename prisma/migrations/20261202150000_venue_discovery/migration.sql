-- Venue discovery: searching by place and by words (venues.queries.ts, docs/api.md "Venue search").
--
-- Words: each venue keeps a weighted word list (searchDocument: A the name, B the city and state, C the property type,
-- venue type and amenities, D the description), kept by a row trigger from the columns it is made of, and indexed by
-- GIN for `q`. The words are the venue's text lower-cased, accents folded (the table below, the same one as
-- src/venues/venue-words.ts) and split on anything but a-z and 0-9: the service tokenizes `q` by the same rule, and
-- matches each of its words exactly or, for words of five letters or more, through the catalogue's words one edit away,
-- which it reads from VenueSearchTerm (kept by a statement trigger; a word no venue uses any more matches nothing).
-- Written by hand below the columns (Prisma's schema has no functions or triggers).
--
-- Place: latitude and longitude beside `published` in one index; a search near a point reads the band of latitude its
-- radius spans and tests the exact distance on those entries.

-- AlterTable
ALTER TABLE "Venue" ADD COLUMN "searchDocument" tsvector;

-- CreateTable
CREATE TABLE "VenueSearchTerm" (
    "term" TEXT NOT NULL,

    CONSTRAINT "VenueSearchTerm_pkey" PRIMARY KEY ("term")
);

-- The words of a text: lower-cased, accents folded, split on anything but a-z and 0-9.
CREATE FUNCTION "venue_search_words"(body TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_remove(regexp_split_to_array(
    translate(lower(coalesce(body, '')),
      'àáâãäåāÀÁÂÃÄÅĀçćčÇĆČèéêëēėęÈÉÊËĒĖĘìíîïīÌÍÎÏĪñńÑŃòóôõöōøÒÓÔÕÖŌØùúûüūÙÚÛÜŪýÿÝŸšŠžŽ',
      'aaaaaaaaaaaaaacccccceeeeeeeeeeeeeeiiiiiiiiiinnnnoooooooooooooouuuuuuuuuuyyyysszz'),
    '[^a-z0-9]+'), '')
$$;

-- A weighted document of the words of `body` (each word one lexeme, at its position).
CREATE FUNCTION "venue_search_weighted"(body TEXT, weight "char") RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, array_to_string("venue_search_words"(body), ' ')), weight)
$$;

CREATE FUNCTION "venue_search_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchDocument" :=
       "venue_search_weighted"(NEW."name", 'A')
    || "venue_search_weighted"(concat_ws(' ', NEW."city", NEW."state"), 'B')
    || "venue_search_weighted"(concat_ws(' ', NEW."propertyType", NEW."venueType", array_to_string(NEW."amenities", ' ')), 'C')
    || "venue_search_weighted"(NEW."description", 'D');
  RETURN NEW;
END
$$;

CREATE TRIGGER "Venue_search_document" BEFORE INSERT OR UPDATE OF "name", "city", "state", "propertyType", "venueType", "amenities", "description"
ON "Venue" FOR EACH ROW EXECUTE FUNCTION "venue_search_document"();

-- In key order, so two writers wait for each other instead of deadlocking.
CREATE FUNCTION "add_venue_search_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "VenueSearchTerm" ("term")
  SELECT DISTINCT t FROM written_venues v, unnest(tsvector_to_array(v."searchDocument")) t ORDER BY 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Venue_search_terms_inserted" AFTER INSERT ON "Venue" REFERENCING NEW TABLE AS written_venues
FOR EACH STATEMENT EXECUTE FUNCTION "add_venue_search_terms"();
CREATE TRIGGER "Venue_search_terms_updated" AFTER UPDATE ON "Venue" REFERENCING NEW TABLE AS written_venues
FOR EACH STATEMENT EXECUTE FUNCTION "add_venue_search_terms"();

-- The venues already here (the trigger above fills the terms).
UPDATE "Venue" SET "name" = "name";

-- CreateIndex
CREATE INDEX "Venue_searchDocument_idx" ON "Venue" USING GIN ("searchDocument");

-- CreateIndex
CREATE INDEX "Venue_published_latitude_longitude_idx" ON "Venue"("published", "latitude", "longitude");
