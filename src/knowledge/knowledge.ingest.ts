// Keeps the KnowledgeChunk table equal to content/knowledge: new and edited sections are written, removed ones
// deleted, and a section is embedded only when its text changed (contentHash). Vectors come, in order, from the
// row already stored, the committed precomputed file (content/knowledge-embeddings.json, so a first start and the
// test templates need no model), and only then from the model itself.
import { readFile, writeFile } from 'node:fs/promises';
import type { PrismaClient } from '../generated/prisma/client.js';
import { readKnowledgeSections, type KnowledgeSection } from './knowledge.content.js';
import { bytesToVector, contentHash, embeddingText, vectorToBytes, type Embedder } from './knowledge.embedder.js';
import { packagePath } from '../config/paths.js';
import { readAllChunks, writeChunkChanges, type ChunkRow } from './knowledge.queries.js';

export const EMBEDDINGS_FILE = packagePath('content', 'knowledge-embeddings.json');

/** The committed file: base64 float32 vectors by contentHash, for one model. */
export interface PrecomputedEmbeddings {
  model: string;
  vectors: Record<string, string>;
}

export async function readPrecomputed(file = EMBEDDINGS_FILE): Promise<PrecomputedEmbeddings | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as PrecomputedEmbeddings;
  } catch {
    return null;
  }
}

export async function writePrecomputed(vectors: Map<string, Float32Array>, model: string, file = EMBEDDINGS_FILE): Promise<void> {
  const sorted = [...vectors.entries()].sort(([a], [b]) => a.localeCompare(b));
  const body: PrecomputedEmbeddings = {
    model,
    vectors: Object.fromEntries(sorted.map(([h, v]) => [h, Buffer.from(vectorToBytes(v)).toString('base64')])),
  };
  await writeFile(file, `${JSON.stringify(body, null, 0).replace(/","/g, '",\n"')}\n`);
}

export interface IngestSummary {
  sections: number;
  written: number;
  deleted: number;
  /** Sections the model had to embed (neither stored nor precomputed). */
  embedded: number;
  /** Sections stored without a vector because the model could not run (the search then answers text_only). */
  unembedded: number;
}

export interface IngestOptions {
  embedder: Embedder;
  sections?: KnowledgeSection[];
  precomputed?: PrecomputedEmbeddings | null;
  onProgress?: (message: string) => void;
}

/** Vectors for every section, by contentHash: stored, precomputed, else embedded by the model in batches. */
export async function vectorsFor(
  sections: KnowledgeSection[],
  options: { embedder: Embedder; stored?: Map<string, Float32Array>; precomputed?: PrecomputedEmbeddings | null },
): Promise<{ vectors: Map<string, Float32Array>; embedded: number; failed: boolean }> {
  const vectors = new Map<string, Float32Array>();
  const missing: Array<{ hash: string; text: string }> = [];
  const precomputed = options.precomputed?.model === options.embedder.id ? options.precomputed.vectors : {};
  for (const section of sections) {
    const text = embeddingText(section);
    const hash = contentHash(text, options.embedder.id);
    const known = options.stored?.get(hash) ?? (precomputed[hash] ? bytesToVector(Buffer.from(precomputed[hash], 'base64')) : undefined);
    if (known) vectors.set(hash, known);
    else if (!missing.some((m) => m.hash === hash)) missing.push({ hash, text });
  }
  let failed = false;
  try {
    for (let i = 0; i < missing.length; i += 32) {
      const batch = missing.slice(i, i + 32);
      const rows = await options.embedder.embed(batch.map((m) => m.text));
      batch.forEach((m, j) => {
        vectors.set(m.hash, rows[j]);
      });
    }
  } catch {
    failed = true;
  }
  return { vectors, embedded: failed ? 0 : missing.length, failed };
}

export async function ingestKnowledge(prisma: PrismaClient, options: IngestOptions): Promise<IngestSummary> {
  const sections = options.sections ?? (await readKnowledgeSections());
  const existing = await readAllChunks(prisma);
  const stored = new Map(existing.filter((r) => r.embedding).map((r) => [r.contentHash, bytesToVector(r.embedding!)]));
  const { vectors, embedded } = await vectorsFor(sections, {
    embedder: options.embedder,
    stored,
    precomputed: options.precomputed ?? (await readPrecomputed()),
  });

  const bySlug = new Map(existing.map((r) => [r.slug, r]));
  const rows: ChunkRow[] = sections.map((s) => {
    const hash = contentHash(embeddingText(s), options.embedder.id);
    const vector = vectors.get(hash);
    return {
      slug: s.slug,
      noteSlug: s.noteSlug,
      title: s.title,
      heading: s.heading,
      body: s.body,
      tags: s.tags,
      position: s.position,
      noteUpdated: new Date(`${s.updated}T00:00:00Z`),
      contentHash: hash,
      embedding: vector ? vectorToBytes(vector) : null,
    };
  });
  const changed = rows.filter((row) => {
    const old = bySlug.get(row.slug);
    if (!old) return true;
    return (
      old.contentHash !== row.contentHash ||
      (old.embedding === null) !== (row.embedding === null) ||
      old.noteSlug !== row.noteSlug ||
      old.title !== row.title ||
      old.heading !== row.heading ||
      old.body !== row.body ||
      old.position !== row.position ||
      old.tags.join(',') !== row.tags.join(',') ||
      old.noteUpdated.getTime() !== row.noteUpdated.getTime()
    );
  });
  const keep = new Set(rows.map((r) => r.slug));
  const removed = existing.filter((r) => !keep.has(r.slug)).map((r) => r.slug);
  await writeChunkChanges(prisma, {
    removed,
    created: changed.filter((r) => !bySlug.has(r.slug)),
    updated: changed.filter((r) => bySlug.has(r.slug)),
  });
  const summary = {
    sections: rows.length,
    written: changed.length,
    deleted: removed.length,
    embedded,
    unembedded: rows.filter((r) => !r.embedding).length,
  };
  options.onProgress?.(
    `knowledge: ${summary.sections} sections, ${summary.written} written, ${summary.deleted} deleted, ${summary.embedded} embedded by the model`,
  );
  return summary;
}
