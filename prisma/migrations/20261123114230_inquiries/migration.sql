-- CreateTable
CREATE TABLE "Inquiry" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "venueId" UUID,
    "vendorId" UUID,
    "targetSlug" TEXT NOT NULL,
    "guestName" TEXT NOT NULL,
    "guestEmail" TEXT NOT NULL,
    "guestPhone" TEXT,
    "startDate" TEXT,
    "endDate" TEXT,
    "eventDate" TEXT,
    "eventGuests" INTEGER,
    "overnightGuests" INTEGER,
    "eventLocation" TEXT,
    "budgetRange" TEXT,
    "serviceNeeded" TEXT,
    "message" TEXT,
    "estimatedPrice" INTEGER,
    "smsConsent" BOOLEAN NOT NULL,
    "smsConsentAt" TIMESTAMP(3) NOT NULL,
    "smsConsentSource" TEXT NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "surface" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Inquiry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "id" UUID NOT NULL,
    "apiKeyId" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "bodyHash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "lockedUntil" TIMESTAMP(3) NOT NULL,
    "inquiryId" UUID,
    "response" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationOutbox" (
    "id" UUID NOT NULL,
    "inquiryId" UUID NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "deliveredAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NotificationOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Inquiry_apiKeyId_createdAt_idx" ON "Inquiry"("apiKeyId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyRecord_apiKeyId_scope_key_key" ON "IdempotencyRecord"("apiKeyId", "scope", "key");

-- CreateIndex
CREATE INDEX "NotificationOutbox_deliveredAt_nextAttemptAt_idx" ON "NotificationOutbox"("deliveredAt", "nextAttemptAt");
