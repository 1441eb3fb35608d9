-- DropIndex
DROP INDEX "Vendor_primaryCitySlug_idx";

-- DropIndex
DROP INDEX "Vendor_primaryStateSlug_idx";

-- CreateIndex
CREATE INDEX "Vendor_primaryStateSlug_active_serviceCategory_idx" ON "Vendor"("primaryStateSlug", "active", "serviceCategory");

-- CreateIndex
CREATE INDEX "Vendor_primaryCitySlug_active_serviceCategory_idx" ON "Vendor"("primaryCitySlug", "active", "serviceCategory");
