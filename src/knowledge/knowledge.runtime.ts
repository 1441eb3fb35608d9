// Which embedder a database's knowledge searches use. The model is process-wide (60–80 MB resident, loaded once);
// a different embedder can be attached to one database client, which is how tests force the semantic half down
// (§4.6 degraded text_only) without touching the app's wiring.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Embedder } from './knowledge.embedder.js';
import { sharedEmbedder } from './knowledge.model-host.js';

const overrides = new WeakMap<PrismaClient, Embedder>();

/** Searches on `prisma` use `embedder` from now on (null restores the shared USE-lite model). */
export function useKnowledgeEmbedder(prisma: PrismaClient, embedder: Embedder | null): void {
  if (embedder) overrides.set(prisma, embedder);
  else overrides.delete(prisma);
}

export function knowledgeEmbedderFor(prisma: PrismaClient): Embedder {
  return overrides.get(prisma) ?? sharedEmbedder();
}
