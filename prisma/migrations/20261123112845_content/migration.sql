-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "slug" TEXT NOT NULL,
    "noteSlug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "heading" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "tags" TEXT[],
    "position" INTEGER NOT NULL,
    "noteUpdated" DATE NOT NULL,
    "contentHash" TEXT NOT NULL,
    "embedding" BYTEA,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "InspirationPhoto" (
    "id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "imageUrl" TEXT,
    "alt" TEXT,
    "description" TEXT,
    "sourceType" TEXT NOT NULL,
    "sourceId" UUID NOT NULL,
    "sourceName" TEXT NOT NULL,
    "sourceSlug" TEXT NOT NULL,
    "sourceCity" TEXT,
    "sourceState" TEXT,
    "styles" TEXT[],
    "settings" TEXT[],
    "colors" TEXT[],
    "moods" TEXT[],
    "season" TEXT,
    "smallUrl" TEXT,
    "mediumUrl" TEXT,
    "largeUrl" TEXT,

    CONSTRAINT "InspirationPhoto_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlogAuthor" (
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "bio" TEXT,

    CONSTRAINT "BlogAuthor_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "BlogTag" (
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "BlogTag_pkey" PRIMARY KEY ("slug")
);

-- CreateTable
CREATE TABLE "BlogPost" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "excerpt" TEXT,
    "featureImage" TEXT,
    "contentMarkdown" TEXT NOT NULL,
    "contentPlaintext" TEXT,
    "publishedAt" TIMESTAMP(3),
    "readingTime" INTEGER,
    "wordCount" INTEGER NOT NULL,
    "authorSlug" TEXT,
    "contentHash" TEXT NOT NULL,

    CONSTRAINT "BlogPost_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlogPostTag" (
    "postId" UUID NOT NULL,
    "tagSlug" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "BlogPostTag_pkey" PRIMARY KEY ("postId","tagSlug")
);

-- CreateIndex
CREATE INDEX "KnowledgeChunk_noteSlug_position_idx" ON "KnowledgeChunk"("noteSlug", "position");

-- CreateIndex
CREATE UNIQUE INDEX "InspirationPhoto_position_key" ON "InspirationPhoto"("position");

-- CreateIndex
CREATE INDEX "InspirationPhoto_styles_idx" ON "InspirationPhoto" USING GIN ("styles");

-- CreateIndex
CREATE INDEX "InspirationPhoto_settings_idx" ON "InspirationPhoto" USING GIN ("settings");

-- CreateIndex
CREATE INDEX "InspirationPhoto_colors_idx" ON "InspirationPhoto" USING GIN ("colors");

-- CreateIndex
CREATE INDEX "InspirationPhoto_moods_idx" ON "InspirationPhoto" USING GIN ("moods");

-- CreateIndex
CREATE INDEX "InspirationPhoto_season_position_idx" ON "InspirationPhoto"("season", "position");

-- CreateIndex
CREATE INDEX "InspirationPhoto_sourceType_sourceId_idx" ON "InspirationPhoto"("sourceType", "sourceId");

-- CreateIndex
CREATE UNIQUE INDEX "BlogPost_slug_key" ON "BlogPost"("slug");

-- CreateIndex
CREATE INDEX "BlogPost_status_publishedAt_idx" ON "BlogPost"("status", "publishedAt");

-- CreateIndex
CREATE INDEX "BlogPostTag_tagSlug_idx" ON "BlogPostTag"("tagSlug");

-- AddForeignKey
ALTER TABLE "BlogPost" ADD CONSTRAINT "BlogPost_authorSlug_fkey" FOREIGN KEY ("authorSlug") REFERENCES "BlogAuthor"("slug") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlogPostTag" ADD CONSTRAINT "BlogPostTag_postId_fkey" FOREIGN KEY ("postId") REFERENCES "BlogPost"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlogPostTag" ADD CONSTRAINT "BlogPostTag_tagSlug_fkey" FOREIGN KEY ("tagSlug") REFERENCES "BlogTag"("slug") ON DELETE RESTRICT ON UPDATE CASCADE;
