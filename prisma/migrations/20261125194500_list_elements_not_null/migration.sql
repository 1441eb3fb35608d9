-- A list column never holds a NULL element. Prisma types these columns String[] (GraphQL: [String!]!) and cannot read
-- one: a NULL element written by raw SQL (an import, a hand fix) made every search or detail that read the row answer
-- 500 database_error on both surfaces. The database now refuses one (check_violation, 23514), and this migration first
-- drops any that exist: a NULL element names no amenity, area or tag, so the rest of the list is what the row meant.
-- Written by hand (Prisma's schema has no CHECK constraints, and its drift check ignores them).

UPDATE "Venue" SET "categories" = array_remove("categories", NULL) WHERE array_position("categories", NULL) IS NOT NULL;
UPDATE "Venue" SET "amenities" = array_remove("amenities", NULL) WHERE array_position("amenities", NULL) IS NOT NULL;
UPDATE "Vendor" SET "serviceSubcategories" = array_remove("serviceSubcategories", NULL) WHERE array_position("serviceSubcategories", NULL) IS NOT NULL;
UPDATE "Vendor" SET "serviceAreas" = array_remove("serviceAreas", NULL) WHERE array_position("serviceAreas", NULL) IS NOT NULL;
UPDATE "Vendor" SET "specialties" = array_remove("specialties", NULL) WHERE array_position("specialties", NULL) IS NOT NULL;
UPDATE "KnowledgeChunk" SET "tags" = array_remove("tags", NULL) WHERE array_position("tags", NULL) IS NOT NULL;
UPDATE "InspirationPhoto" SET "styles" = array_remove("styles", NULL) WHERE array_position("styles", NULL) IS NOT NULL;
UPDATE "InspirationPhoto" SET "settings" = array_remove("settings", NULL) WHERE array_position("settings", NULL) IS NOT NULL;
UPDATE "InspirationPhoto" SET "colors" = array_remove("colors", NULL) WHERE array_position("colors", NULL) IS NOT NULL;
UPDATE "InspirationPhoto" SET "moods" = array_remove("moods", NULL) WHERE array_position("moods", NULL) IS NOT NULL;

ALTER TABLE "Venue" ADD CONSTRAINT "Venue_categories_no_null_element" CHECK (array_position("categories", NULL) IS NULL);
ALTER TABLE "Venue" ADD CONSTRAINT "Venue_amenities_no_null_element" CHECK (array_position("amenities", NULL) IS NULL);
ALTER TABLE "Vendor" ADD CONSTRAINT "Vendor_serviceSubcategories_no_null_element" CHECK (array_position("serviceSubcategories", NULL) IS NULL);
ALTER TABLE "Vendor" ADD CONSTRAINT "Vendor_serviceAreas_no_null_element" CHECK (array_position("serviceAreas", NULL) IS NULL);
ALTER TABLE "Vendor" ADD CONSTRAINT "Vendor_specialties_no_null_element" CHECK (array_position("specialties", NULL) IS NULL);
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_tags_no_null_element" CHECK (array_position("tags", NULL) IS NULL);
ALTER TABLE "InspirationPhoto" ADD CONSTRAINT "InspirationPhoto_styles_no_null_element" CHECK (array_position("styles", NULL) IS NULL);
ALTER TABLE "InspirationPhoto" ADD CONSTRAINT "InspirationPhoto_settings_no_null_element" CHECK (array_position("settings", NULL) IS NULL);
ALTER TABLE "InspirationPhoto" ADD CONSTRAINT "InspirationPhoto_colors_no_null_element" CHECK (array_position("colors", NULL) IS NULL);
ALTER TABLE "InspirationPhoto" ADD CONSTRAINT "InspirationPhoto_moods_no_null_element" CHECK (array_position("moods", NULL) IS NULL);
