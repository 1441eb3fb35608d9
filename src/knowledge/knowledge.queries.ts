import type { PrismaClient } from '../generated/prisma/client.js';
import type { KnowledgeSection } from './knowledge.content.js';

/**
 * The knowledge module's data access: the words ranking (§4.6), the sections' index and texts, and the ingest's
 * writes. Prisma's client throughout; the ranking is one raw statement, as the client has no BM25.
 */

/** A KnowledgeChunk row as the ingest writes it: a section, its note's date, hash and vector (updatedAt is the database's). */
export interface ChunkRow extends Omit<KnowledgeSection, 'updated'> {
  noteUpdated: Date;
  contentHash: string;
  embedding: Uint8Array<ArrayBuffer> | null;
}

/**
 * Slugs of the sections matching `q`, best first, at most `depth`: PostgreSQL full-text search (english
 * configuration: stemming, stop words) scored with Okapi BM25 over the sections' lexemes. ts_rank/ts_rank_cd weigh
 * every word alike, so in a question such as "do we have to feed the DJ" the word "feed" counted no more than
 * "wedding", which every note uses; BM25's inverse document frequency makes the rare, telling words decide. Title
 * lexemes count 3 times, heading and tag lexemes twice. A section matches when it shares any lexeme with the question.
 * Computed per query: a few hundred short sections need no index (an expression index would also be invisible to the
 * schema's drift check).
 */
export async function rankChunksByText(prisma: PrismaClient, q: string, depth: number): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ slug: string }[]>`
    WITH query AS (
      SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${q}))) AS lexeme
    ),
    docs AS (
      SELECT c."slug",
        setweight(to_tsvector('english', c."title"), 'A')
          || setweight(to_tsvector('english', c."heading" || ' ' || array_to_string(c."tags", ' ')), 'B')
          || setweight(to_tsvector('english', c."body"), 'C') AS doc
      FROM "KnowledgeChunk" c
    ),
    terms AS (
      SELECT d."slug", t.lexeme,
        (SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(t.weights) AS w)::float8 AS tf
      FROM docs d, unnest(d.doc) AS t
    ),
    lengths AS (SELECT "slug", sum(tf) AS len FROM terms GROUP BY "slug"),
    stats AS (SELECT count(*)::float8 AS n, avg(len) AS avglen FROM lengths),
    df AS (SELECT t.lexeme, count(*)::float8 AS df FROM terms t JOIN query USING (lexeme) GROUP BY t.lexeme)
    SELECT t."slug"
    FROM terms t
    JOIN df USING (lexeme)
    JOIN lengths l USING ("slug"), stats s
    GROUP BY t."slug"
    ORDER BY sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * t.tf * 2.2 / (t.tf + 1.2 * (0.25 + 0.75 * l.len / s.avglen))) DESC, t."slug"
    LIMIT ${depth}`;
  return rows.map((r) => r.slug);
}

/** Every section's slug, tags, contentHash and note date, in slug order; no texts or vectors. */
export function readChunkIndex(prisma: PrismaClient) {
  return prisma.knowledgeChunk.findMany({
    select: { slug: true, tags: true, contentHash: true, noteUpdated: true },
    orderBy: { slug: 'asc' },
  });
}

/** The vectors of those of `slugs` that have one, by contentHash. */
export function readChunkVectors(prisma: PrismaClient, slugs: string[]) {
  return prisma.knowledgeChunk.findMany({
    where: { slug: { in: slugs }, embedding: { not: null } },
    select: { contentHash: true, embedding: true },
  });
}

/** What a search answers of a section. */
export interface ChunkText {
  slug: string;
  title: string;
  heading: string;
  body: string;
}

/** The texts of the sections named by `slugs`, in no particular order; an unknown slug is absent. */
export function readChunksBySlug(prisma: PrismaClient, slugs: string[]): Promise<ChunkText[]> {
  return prisma.knowledgeChunk.findMany({
    where: { slug: { in: slugs } },
    select: { slug: true, title: true, heading: true, body: true },
  });
}

/** Every stored section, all columns (the ingest compares them with the notes). */
export function readAllChunks(prisma: PrismaClient) {
  return prisma.knowledgeChunk.findMany();
}

/**
 * Deletes `removed` (slugs), creates `created` and updates `updated` in one transaction (up to 60 s to start, 120 s
 * to run); nothing is sent when all three are empty.
 */
export async function writeChunkChanges(
  prisma: PrismaClient,
  changes: { removed: string[]; created: ChunkRow[]; updated: ChunkRow[] },
): Promise<void> {
  const { removed, created, updated } = changes;
  if (!removed.length && !created.length && !updated.length) return;
  await prisma.$transaction(
    async (tx) => {
      if (removed.length) await tx.knowledgeChunk.deleteMany({ where: { slug: { in: removed } } });
      if (created.length) await tx.knowledgeChunk.createMany({ data: created });
      for (const row of updated) await tx.knowledgeChunk.update({ where: { slug: row.slug }, data: row });
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
}
