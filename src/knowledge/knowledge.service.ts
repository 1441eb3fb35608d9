import type { PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import { parseInput } from '../errors/validation.js';
import { bytesToVector, dot, type Embedder } from './knowledge.embedder.js';
import { KnowledgeSearchInput } from './knowledge.inputs.js';
import { rankChunksByText, readChunkIndex, readChunksBySlug, readChunkVectors, type ChunkText } from './knowledge.queries.js';

export interface KnowledgeDeps {
  prisma: PrismaClient;
  embedder: Embedder;
  /** Told when the semantic half is down (the answer is then text_only). */
  onDegraded?: (error: unknown) => void;
}

/** §2.7 knowledge chunk. */
export interface KnowledgeHit {
  slug: string;
  title: string;
  heading: string;
  body: string;
  kind: 'knowledge';
  /** Fused reciprocal-rank score: higher is closer; not comparable across queries. */
  score: number;
}

export interface KnowledgeSearchResult {
  data: KnowledgeHit[];
  query: string;
  /** YYYY-MM-DD of the newest note revision. */
  asOf: string;
  note: string;
  degraded: 'text_only' | null;
}

export const KNOWLEDGE_NOTE =
  'Authored planning notes and policies, returned verbatim and ranked by meaning and by words. ' +
  'Not a venue price and not availability: confirm terms with the venue or vendor.';

/** Reciprocal rank fusion constant (Cormack et al. 2009): damps the weight of the very first ranks. */
export const RRF_K = 60;
/** How deep each half ranks before fusion. The semantic half ranks every section; the text half its matches. */
const TEXT_DEPTH = 100;

/** A ranked list of chunk slugs, best first. */
export type Ranking = string[];

/** The words half: the sections sharing a word with the question, by BM25 (rankChunksByText says how). */
export function textRanking(prisma: PrismaClient, q: string, depth = TEXT_DEPTH): Promise<Ranking> {
  return rankChunksByText(prisma, q, depth);
}

interface IndexEntry {
  slug: string;
  tags: string[];
  vector: Float32Array | null;
}

// Vectors by contentHash. A hash names the exact text and model, so an entry never goes stale; it only spares
// reading ~2 KB per section from the database on every search.
const vectorCache = new Map<string, Float32Array>();
const VECTOR_CACHE_MAX = 20_000;

/** Every section's slug, tags and vector (vectors read from the database only for hashes not seen before). */
export async function loadIndex(prisma: PrismaClient): Promise<{ entries: IndexEntry[]; asOf: string }> {
  const rows = await readChunkIndex(prisma);
  const unknown = rows.filter((r) => !vectorCache.has(r.contentHash)).map((r) => r.slug);
  if (unknown.length) {
    if (vectorCache.size + unknown.length > VECTOR_CACHE_MAX) vectorCache.clear();
    const fetched = await readChunkVectors(prisma, unknown);
    for (const f of fetched) vectorCache.set(f.contentHash, bytesToVector(f.embedding!));
  }
  // biome-ignore lint/complexity/useMathMinMax: Dates compare with >, Math.max would turn them into numbers
  const newest = rows.reduce((max, r) => (r.noteUpdated > max ? r.noteUpdated : max), new Date(0));
  return {
    entries: rows.map((r) => ({ slug: r.slug, tags: r.tags, vector: vectorCache.get(r.contentHash) ?? null })),
    asOf: rows.length ? newest.toISOString().slice(0, 10) : '',
  };
}

/** The meaning half: cosine (dot product of unit vectors) between the question and every section, brute force. */
export async function semanticRanking(embedder: Embedder, q: string, entries: IndexEntry[]): Promise<Ranking> {
  const withVectors = entries.filter((e): e is IndexEntry & { vector: Float32Array } => e.vector !== null);
  if (!withVectors.length) throw new Error('no section has an embedding');
  const [query] = await embedder.embed([q]);
  return withVectors
    .map((e) => ({ slug: e.slug, similarity: dot(query, e.vector) }))
    .sort((a, b) => b.similarity - a.similarity || a.slug.localeCompare(b.slug))
    .map((e) => e.slug);
}

/** Reciprocal rank fusion: score(d) = Σ over rankings of 1 / (k + rank of d), ranks from 1. */
export function fuse(rankings: Ranking[], k = RRF_K): Map<string, number> {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((slug, i) => {
      scores.set(slug, (scores.get(slug) ?? 0) + 1 / (k + i + 1));
    });
  }
  return scores;
}

const ordered = (scores: Map<string, number>) => [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

/**
 * Boost tags (§4.6) join the fusion as one more ranking: the sections carrying a requested tag, in their fused
 * order. A tagged section therefore rises; an untagged one keeps its score and is never dropped.
 */
export function withTagBoost(scores: Map<string, number>, entries: IndexEntry[], tags: string[] | undefined): Map<string, number> {
  if (!tags?.length) return scores;
  const tagged = new Set(entries.filter((e) => e.tags.some((t) => tags.includes(t))).map((e) => e.slug));
  const ranking = ordered(scores)
    .map(([slug]) => slug)
    .filter((slug) => tagged.has(slug));
  const boosted = new Map(scores);
  for (const [slug, extra] of fuse([ranking])) boosted.set(slug, (boosted.get(slug) ?? 0) + extra);
  return boosted;
}

/** §4.6: both halves fused; words alone (degraded text_only) when the semantic half fails; 503 when the store does. */
export async function searchKnowledge(rawInput: unknown, deps: KnowledgeDeps): Promise<KnowledgeSearchResult> {
  const { q, tags, limit } = parseInput(KnowledgeSearchInput, rawInput);
  let text: Ranking;
  let index: Awaited<ReturnType<typeof loadIndex>>;
  try {
    [text, index] = await Promise.all([textRanking(deps.prisma, q), loadIndex(deps.prisma)]);
  } catch (cause) {
    throw new ApiError('knowledge_unavailable', { cause });
  }
  let semantic: Ranking | null = null;
  try {
    semantic = await semanticRanking(deps.embedder, q, index.entries);
  } catch (error) {
    deps.onDegraded?.(error);
  }
  const scores = withTagBoost(fuse(semantic ? [text, semantic] : [text]), index.entries, tags);
  const top = ordered(scores).slice(0, limit);
  const slugs = top.map(([slug]) => slug);
  let rows: ChunkText[];
  try {
    rows = await readChunksBySlug(deps.prisma, slugs);
  } catch (cause) {
    throw new ApiError('knowledge_unavailable', { cause });
  }
  const bySlug = new Map(rows.map((r) => [r.slug, r]));
  return {
    data: top.flatMap(([slug, score]) => {
      const row = bySlug.get(slug);
      return row ? [{ ...row, kind: 'knowledge' as const, score: Number(score.toFixed(6)) }] : [];
    }),
    query: q,
    asOf: index.asOf,
    note: KNOWLEDGE_NOTE,
    degraded: semantic ? null : 'text_only',
  };
}
