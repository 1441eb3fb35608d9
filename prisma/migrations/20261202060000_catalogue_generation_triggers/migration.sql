-- Every write to a table a cached answer reads raises CatalogueState.generation in the writer's own transaction, so the
-- response cache and the day's exchange rates (src/cache/catalogue-generation.ts) follow any committed catalogue write:
-- the seed, the content sync, psql, a future admin path. Nodes read the generation every 5 s; before this only the
-- seed, clearing the catalogue and the content sync raised it, and anything else was served stale until the TTL.
--
-- BEFORE the statement, and once per transaction: the first catalogue statement of a transaction takes the one
-- CatalogueState row's lock before it touches a catalogue row, and later statements (the count triggers' own writes
-- included) skip the trigger by its WHEN, a flag local to the transaction (reset by commit, rollback and a rolled-back
-- savepoint, as the raise itself is). So a bulk load writes one row version, not one per statement, and catalogue
-- writers queue on that row before they hold any other: they cannot deadlock each other, and a reconcile that holds
-- the row sees no write in flight (src/venues/published-venue-counts.ts). A statement fires it even when it changes no
-- row; the seed and the content sync send none when nothing changed. Written by hand (Prisma's schema has no triggers).

CREATE FUNCTION "raise_catalogue_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- UTC, as Prisma stores DateTime in timestamp(3).
  INSERT INTO "CatalogueState" AS s ("id", "generation", "changedAt") VALUES (1, 1, now() AT TIME ZONE 'UTC')
  ON CONFLICT ("id") DO UPDATE SET "generation" = s."generation" + 1, "changedAt" = EXCLUDED."changedAt";
  PERFORM set_config('catalogue.generation_raised', 'on', true);
  RETURN NULL;
END
$$;

-- The tables cached answers read: the catalogue, the rows derived from it by triggers (written by the venue statement
-- that raised already, or by `npm run db:reconcile`), the content and the exchange rates.
CREATE TRIGGER "Venue_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Venue"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "VenuePhoto_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VenuePhoto"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "Testimonial_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Testimonial"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "VenuePropertyType_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VenuePropertyType"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "ListedVenueAmenity_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ListedVenueAmenity"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "PublishedVenueCount_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "PublishedVenueCount"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "VendorCategory_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VendorCategory"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "Vendor_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "Vendor"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "VendorPhoto_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "VendorPhoto"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "ExchangeRate_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ExchangeRate"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "KnowledgeChunk_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "KnowledgeChunk"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "InspirationPhoto_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "InspirationPhoto"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "BlogAuthor_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BlogAuthor"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "BlogTag_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BlogTag"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "BlogPost_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BlogPost"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();
CREATE TRIGGER "BlogPostTag_raise_catalogue_generation" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "BlogPostTag"
FOR EACH STATEMENT WHEN (current_setting('catalogue.generation_raised', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION "raise_catalogue_generation"();

-- The row the triggers and a reconcile lock always exists (generation 0 until the first write, as when it was absent).
INSERT INTO "CatalogueState" ("id", "changedAt") VALUES (1, now() AT TIME ZONE 'UTC') ON CONFLICT ("id") DO NOTHING;
