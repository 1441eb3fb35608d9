-- CreateEnum
CREATE TYPE "ApiTier" AS ENUM ('free', 'pro', 'partner');

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "tier" "ApiTier" NOT NULL,
    "name" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppSecret_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "ExchangeRate" (
    "id" SERIAL NOT NULL,
    "base" TEXT NOT NULL,
    "quote" TEXT NOT NULL,
    "rateDate" DATE NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "ExchangeRate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Venue" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "published" BOOLEAN NOT NULL DEFAULT true,
    "city" TEXT NOT NULL,
    "citySlug" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "stateSlug" TEXT NOT NULL,
    "country" TEXT,
    "propertyType" TEXT,
    "venueType" TEXT,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "capacityMin" INTEGER,
    "capacityMax" INTEGER,
    "bedrooms" INTEGER,
    "beds" INTEGER,
    "bathrooms" DOUBLE PRECISION,
    "gatheringSpaces" INTEGER,
    "accommodates" INTEGER,
    "description" TEXT,
    "seoDescription" TEXT,
    "heroImage" TEXT,
    "categories" TEXT[],
    "amenities" TEXT[],
    "currency" TEXT NOT NULL,
    "minNights" INTEGER NOT NULL,
    "weekdayBase" INTEGER,
    "weekendBase" INTEGER,
    "extraNight" INTEGER,
    "cleaningFee" INTEGER,
    "serviceFeePercent" DOUBLE PRECISION,
    "taxPercent" DOUBLE PRECISION,
    "startingTotal" INTEGER,
    "totalPhotos" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Venue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VenuePhoto" (
    "id" UUID NOT NULL,
    "venueId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "category" TEXT,
    "isFeatured" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER,

    CONSTRAINT "VenuePhoto_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Testimonial" (
    "id" UUID NOT NULL,
    "venueId" UUID NOT NULL,
    "guestName" TEXT,
    "rating" DOUBLE PRECISION,
    "review" TEXT,
    "eventDate" DATE,

    CONSTRAINT "Testimonial_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VendorCategory" (
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "VendorCategory_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "Vendor" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "businessName" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "serviceCategory" TEXT NOT NULL,
    "tagline" TEXT,
    "primaryCity" TEXT,
    "primaryCitySlug" TEXT,
    "primaryState" TEXT,
    "primaryStateSlug" TEXT,
    "bio" TEXT,
    "serviceSubcategories" TEXT[],
    "serviceAreas" TEXT[],
    "specialties" TEXT[],
    "startingPrice" INTEGER,
    "priceUnit" TEXT,
    "yearsInBusiness" INTEGER,
    "weddingsCompleted" INTEGER,
    "featured" BOOLEAN,
    "featuredImageUrl" TEXT,
    "isAffiliateOnly" BOOLEAN NOT NULL DEFAULT false,
    "affiliateLink" TEXT,
    "website" TEXT,
    "instagram" TEXT,
    "facebook" TEXT,
    "tiktok" TEXT,
    "pricingStructure" TEXT,
    "portfolioDescription" TEXT,
    "vendorPolicies" JSONB,
    "averageRating" DOUBLE PRECISION,
    "reviewCount" INTEGER,
    "totalPhotos" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Vendor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VendorPhoto" (
    "id" UUID NOT NULL,
    "vendorId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "category" TEXT,
    "altText" TEXT,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL,

    CONSTRAINT "VendorPhoto_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_prefix_key" ON "ApiKey"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "ExchangeRate_base_quote_rateDate_key" ON "ExchangeRate"("base", "quote", "rateDate");

-- CreateIndex
CREATE UNIQUE INDEX "Venue_slug_key" ON "Venue"("slug");

-- CreateIndex
CREATE INDEX "Venue_published_slug_idx" ON "Venue"("published", "slug");

-- CreateIndex
CREATE INDEX "Venue_stateSlug_slug_idx" ON "Venue"("stateSlug", "slug");

-- CreateIndex
CREATE INDEX "Venue_citySlug_slug_idx" ON "Venue"("citySlug", "slug");

-- CreateIndex
CREATE INDEX "Venue_capacityMax_idx" ON "Venue"("capacityMax");

-- CreateIndex
CREATE INDEX "Venue_bedrooms_idx" ON "Venue"("bedrooms");

-- CreateIndex
CREATE INDEX "Venue_currency_startingTotal_idx" ON "Venue"("currency", "startingTotal");

-- CreateIndex
CREATE INDEX "Venue_amenities_idx" ON "Venue" USING GIN ("amenities");

-- CreateIndex
CREATE INDEX "VenuePhoto_venueId_position_idx" ON "VenuePhoto"("venueId", "position");

-- CreateIndex
CREATE INDEX "Testimonial_venueId_eventDate_idx" ON "Testimonial"("venueId", "eventDate");

-- CreateIndex
CREATE UNIQUE INDEX "Vendor_slug_key" ON "Vendor"("slug");

-- CreateIndex
CREATE INDEX "Vendor_active_createdAt_id_idx" ON "Vendor"("active", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Vendor_active_serviceCategory_idx" ON "Vendor"("active", "serviceCategory");

-- CreateIndex
CREATE INDEX "Vendor_active_startingPrice_idx" ON "Vendor"("active", "startingPrice");

-- CreateIndex
CREATE INDEX "Vendor_active_yearsInBusiness_idx" ON "Vendor"("active", "yearsInBusiness");

-- CreateIndex
CREATE INDEX "Vendor_active_weddingsCompleted_idx" ON "Vendor"("active", "weddingsCompleted");

-- CreateIndex
CREATE INDEX "Vendor_primaryStateSlug_idx" ON "Vendor"("primaryStateSlug");

-- CreateIndex
CREATE INDEX "Vendor_primaryCitySlug_idx" ON "Vendor"("primaryCitySlug");

-- CreateIndex
CREATE INDEX "VendorPhoto_vendorId_position_idx" ON "VendorPhoto"("vendorId", "position");

-- AddForeignKey
ALTER TABLE "VenuePhoto" ADD CONSTRAINT "VenuePhoto_venueId_fkey" FOREIGN KEY ("venueId") REFERENCES "Venue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Testimonial" ADD CONSTRAINT "Testimonial_venueId_fkey" FOREIGN KEY ("venueId") REFERENCES "Venue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Vendor" ADD CONSTRAINT "Vendor_serviceCategory_fkey" FOREIGN KEY ("serviceCategory") REFERENCES "VendorCategory"("slug") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VendorPhoto" ADD CONSTRAINT "VendorPhoto_vendorId_fkey" FOREIGN KEY ("vendorId") REFERENCES "Vendor"("id") ON DELETE CASCADE ON UPDATE CASCADE;
