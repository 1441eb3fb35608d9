// The measured quality of the knowledge search (§4.6): for each question of a labelled set, the rank of the first
// section from the note that answers it, for words alone, meaning alone and the fused ranking the API serves.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Embedder } from './knowledge.embedder.js';
import { fuse, loadIndex, semanticRanking, textRanking, type Ranking } from './knowledge.service.js';

export interface LabelledQuestion {
  q: string;
  /** Slug of the note that should answer it. */
  note: string;
}

export interface Figures {
  /** Share of questions whose note appears in the top 5 sections. */
  recallAt5: number;
  /** Mean of 1 / rank of the note's first section (0 when absent). */
  mrr: number;
}

export interface Evaluation {
  questions: number;
  text: Figures;
  semantic: Figures;
  fused: Figures;
  /** Questions whose note the fused top 5 misses. */
  misses: Array<{ q: string; note: string; rank: number | null }>;
}

const inNote = (slug: string, note: string) => slug === note || slug.startsWith(`${note}/`);

function rankOf(ranking: Ranking, note: string): number | null {
  const i = ranking.findIndex((slug) => inNote(slug, note));
  return i < 0 ? null : i + 1;
}

function figures(ranks: Array<number | null>): Figures {
  const n = ranks.length || 1;
  return {
    recallAt5: ranks.filter((r) => r !== null && r <= 5).length / n,
    mrr: ranks.reduce<number>((sum, r) => sum + (r ? 1 / r : 0), 0) / n,
  };
}

export async function evaluateKnowledge(prisma: PrismaClient, embedder: Embedder, questions: LabelledQuestion[]): Promise<Evaluation> {
  const { entries } = await loadIndex(prisma);
  const ranks = { text: [] as Array<number | null>, semantic: [] as Array<number | null>, fused: [] as Array<number | null> };
  const misses: Evaluation['misses'] = [];
  for (const { q, note } of questions) {
    const text = await textRanking(prisma, q);
    const semantic = await semanticRanking(embedder, q, entries);
    const fused = [...fuse([text, semantic]).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([slug]) => slug);
    ranks.text.push(rankOf(text, note));
    ranks.semantic.push(rankOf(semantic, note));
    const rank = rankOf(fused, note);
    ranks.fused.push(rank);
    if (rank === null || rank > 5) misses.push({ q, note, rank });
  }
  return { questions: questions.length, text: figures(ranks.text), semantic: figures(ranks.semantic), fused: figures(ranks.fused), misses };
}
