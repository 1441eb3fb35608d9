// Planning content (§2.7, §2.12, §2.13) brought up to date at start and in the test templates: knowledge sections
// and blog posts follow their Markdown files (only what changed is written; sections are embedded only when their
// text changed), and the inspiration gallery is generated once the catalogue it links to exists. Nothing is written
// when nothing changed, so the catalogue generation (raised by any write, src/cache/catalogue-generation.ts) stays.
import type { PrismaClient } from '../generated/prisma/client.js';
import { syncBlog } from '../blog/blog.seed.js';
import { seedInspiration } from '../inspiration/inspiration.seed.js';
import type { Embedder } from '../knowledge/knowledge.embedder.js';
import { sharedEmbedder } from '../knowledge/knowledge.model-host.js';
import { ingestKnowledge, type IngestSummary } from '../knowledge/knowledge.ingest.js';

export interface ContentSummary {
  knowledge: IngestSummary;
  blog: { posts: number; written: number; deleted: number };
  inspirationPhotos: number;
}

export async function seedContent(
  prisma: PrismaClient,
  options: { embedder?: Embedder; onProgress?: (message: string) => void } = {},
): Promise<ContentSummary> {
  const knowledge = await ingestKnowledge(prisma, { embedder: options.embedder ?? sharedEmbedder(), onProgress: options.onProgress });
  const blog = await syncBlog(prisma);
  const inspirationPhotos = await seedInspiration(prisma);
  options.onProgress?.(`content: ${blog.posts} blog posts (${blog.written} written), ${inspirationPhotos} inspiration photos generated`);
  return { knowledge, blog, inspirationPhotos };
}
