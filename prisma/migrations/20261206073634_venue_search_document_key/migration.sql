-- Facets count the venues that words or a place match by this number, in memory: each venue's row keeps the one it
-- was given (the copy trigger updates a row in place). Rows already stored are numbered as the column is added.

-- AlterTable
ALTER TABLE "VenueSearchDocument" ADD COLUMN     "key" BIGSERIAL NOT NULL;
