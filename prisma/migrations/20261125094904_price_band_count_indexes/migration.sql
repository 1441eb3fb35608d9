-- CreateIndex
CREATE INDEX "Venue_published_startingTotal_idx" ON "Venue"("published", "startingTotal");

-- CreateIndex
CREATE INDEX "Venue_published_currency_startingTotal_idx" ON "Venue"("published", "currency", "startingTotal");
