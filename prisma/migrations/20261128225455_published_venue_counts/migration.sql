-- Exact counts read as one row (PublishedVenueCount, schema.prisma): every published venue, and the published venues
-- listing both of two amenities. On the 100,000-venue catalogue the first was an index-only count of 96,044 entries
-- (7–13 ms) for the most common search, page 1 without a filter; the second a merge join of two amenities' 36,000
-- listed venues each (15–20 ms) for pool with hot-tub (docs/performance.md, "What this stop measured (stop 50)").
--
-- Statement triggers on Venue keep them in the writer's transaction: each statement's transition tables give the rows
-- it wrote, and one upsert per statement adds the new published rows' counts and subtracts the old ones'. A reader's
-- snapshot therefore sees the counts of the venues it sees. Per statement, not per row: the seed inserts thousands of
-- venues per statement, and one counter row updated per venue would leave as many row versions. Upserts take the rows
-- in key order, so two writers wait for each other instead of deadlocking. Written by hand below the table (Prisma's
-- schema has no triggers or functions).

-- CreateTable
CREATE TABLE "PublishedVenueCount" (
    "amenity" TEXT NOT NULL,
    "otherAmenity" TEXT NOT NULL,
    "venues" INTEGER NOT NULL,

    CONSTRAINT "PublishedVenueCount_pkey" PRIMARY KEY ("amenity","otherAmenity")
);

-- The keys a venue listing `amenities` is counted under: ('', '') and each pair of its distinct amenities in order.
CREATE FUNCTION "published_venue_count_keys"(amenities TEXT[]) RETURNS TABLE ("amenity" TEXT, "otherAmenity" TEXT)
LANGUAGE sql IMMUTABLE AS $$
  WITH listed AS (SELECT DISTINCT a FROM unnest(amenities) AS a WHERE a IS NOT NULL AND a <> '')
  SELECT '', ''
  UNION ALL
  SELECT one.a, other.a FROM listed one JOIN listed other ON one.a < other.a
$$;

CREATE FUNCTION "count_published_venues"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names the transition tables its trigger declares: PL/pgSQL plans a statement when it first runs it.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "PublishedVenueCount" AS c ("amenity", "otherAmenity", "venues")
    SELECT k."amenity", k."otherAmenity", count(*) FROM written_venues v, "published_venue_count_keys"(v."amenities") k
    WHERE v."published" GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("amenity", "otherAmenity") DO UPDATE SET "venues" = c."venues" + EXCLUDED."venues";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "PublishedVenueCount" AS c ("amenity", "otherAmenity", "venues")
    SELECT k."amenity", k."otherAmenity", -count(*) FROM removed_venues v, "published_venue_count_keys"(v."amenities") k
    WHERE v."published" GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("amenity", "otherAmenity") DO UPDATE SET "venues" = c."venues" + EXCLUDED."venues";
  ELSE
    INSERT INTO "PublishedVenueCount" AS c ("amenity", "otherAmenity", "venues")
    SELECT k."amenity", k."otherAmenity", sum(d.sign)
    FROM (SELECT v."amenities", 1 AS sign FROM written_venues v WHERE v."published"
          UNION ALL
          SELECT v."amenities", -1 FROM removed_venues v WHERE v."published") d,
         "published_venue_count_keys"(d."amenities") k
    GROUP BY 1, 2 HAVING sum(d.sign) <> 0 ORDER BY 1, 2
    ON CONFLICT ("amenity", "otherAmenity") DO UPDATE SET "venues" = c."venues" + EXCLUDED."venues";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Venue_count_inserted" AFTER INSERT ON "Venue" REFERENCING NEW TABLE AS written_venues
FOR EACH STATEMENT EXECUTE FUNCTION "count_published_venues"();
CREATE TRIGGER "Venue_count_updated" AFTER UPDATE ON "Venue" REFERENCING OLD TABLE AS removed_venues NEW TABLE AS written_venues
FOR EACH STATEMENT EXECUTE FUNCTION "count_published_venues"();
CREATE TRIGGER "Venue_count_deleted" AFTER DELETE ON "Venue" REFERENCING OLD TABLE AS removed_venues
FOR EACH STATEMENT EXECUTE FUNCTION "count_published_venues"();

CREATE FUNCTION "uncount_truncated_venues"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "PublishedVenueCount" SET "venues" = 0 WHERE "venues" <> 0;
  RETURN NULL;
END
$$;
CREATE TRIGGER "Venue_count_truncated" AFTER TRUNCATE ON "Venue"
FOR EACH STATEMENT EXECUTE FUNCTION "uncount_truncated_venues"();

-- The catalogue as it is, and the every-venue row even when it is empty (a search reads it, never adds it).
INSERT INTO "PublishedVenueCount" ("amenity", "otherAmenity", "venues") VALUES ('', '', 0);
INSERT INTO "PublishedVenueCount" AS c ("amenity", "otherAmenity", "venues")
SELECT k."amenity", k."otherAmenity", count(*) FROM "Venue" v, "published_venue_count_keys"(v."amenities") k
WHERE v."published" GROUP BY 1, 2
ON CONFLICT ("amenity", "otherAmenity") DO UPDATE SET "venues" = c."venues" + EXCLUDED."venues";
