-- CreateTable
CREATE TABLE "CatalogueState" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CatalogueState_pkey" PRIMARY KEY ("id")
);
