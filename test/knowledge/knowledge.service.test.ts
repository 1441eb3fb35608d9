import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { readKnowledgeSections, splitNote } from '../../src/knowledge/knowledge.content.js';
import { contentHash, embeddingText, USE_LITE_ID, type Embedder } from '../../src/knowledge/knowledge.embedder.js';
import { sharedEmbedder } from '../../src/knowledge/knowledge.model-host.js';
import { evaluateKnowledge, type LabelledQuestion } from '../../src/knowledge/knowledge.eval.js';
import { ingestKnowledge, readPrecomputed } from '../../src/knowledge/knowledge.ingest.js';
import { fuse } from '../../src/knowledge/knowledge.service.js';
import { createEmptyTestDatabase, createTestDatabase } from '../support/database.js';

const questions = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as LabelledQuestion[];

describe('knowledge content', () => {
  it('has at least 40 notes split into sections with stable path-like slugs', async () => {
    const sections = await readKnowledgeSections();
    const notes = new Set(sections.map((s) => s.noteSlug));
    expect(notes.size).toBeGreaterThanOrEqual(40);
    for (const group of ['budgeting', 'contracts', 'guests', 'seasons', 'destinations', 'vendors', 'policies', 'accessibility', 'timelines']) {
      expect(
        [...notes].some((n) => n.startsWith(`${group}/`)),
        group,
      ).toBe(true);
    }
    for (const country of ['mexico', 'italy', 'costa-rica', 'ireland', 'australia']) expect(notes.has(`destinations/${country}`), country).toBe(true);
    expect(new Set(sections.map((s) => s.slug)).size).toBe(sections.length);
    for (const s of sections) expect(s.body.trim()).toBe(s.body);
  });

  it('splits a note at its headings, the opening text with an empty heading, bodies verbatim', () => {
    const note =
      '---\ntitle: T\ntags: Budget, Money Talk\nupdated: 2026-01-02\n---\nIntro *text*.\n\n## First part\nLine one.\n\n- a list\n\n### Deeper bit\nMore.\n\n## Empty\n\n';
    expect(splitNote('g/n', note)).toEqual([
      {
        slug: 'g/n',
        noteSlug: 'g/n',
        title: 'T',
        heading: '',
        body: 'Intro *text*.',
        tags: ['budget', 'money-talk'],
        position: 0,
        updated: '2026-01-02',
      },
      {
        slug: 'g/n/first-part',
        noteSlug: 'g/n',
        title: 'T',
        heading: 'First part',
        body: 'Line one.\n\n- a list',
        tags: ['budget', 'money-talk'],
        position: 1,
        updated: '2026-01-02',
      },
      {
        slug: 'g/n/deeper-bit',
        noteSlug: 'g/n',
        title: 'T',
        heading: 'Deeper bit',
        body: 'More.',
        tags: ['budget', 'money-talk'],
        position: 2,
        updated: '2026-01-02',
      },
    ]);
    expect(() => splitNote('g/n', 'no frontmatter')).toThrow(/frontmatter/);
  });

  it('ships a precomputed vector for every section (run npm run knowledge:embeddings after editing content)', async () => {
    const precomputed = await readPrecomputed();
    expect(precomputed?.model).toBe(USE_LITE_ID);
    const missing = (await readKnowledgeSections())
      .filter((s) => !precomputed!.vectors[contentHash(embeddingText(s), USE_LITE_ID)])
      .map((s) => s.slug);
    expect(missing).toEqual([]);
  });
});

describe('ingestKnowledge', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createEmptyTestDatabase();
  });
  afterAll(() => db?.close());

  /** A fake model that counts what it is asked to embed. */
  function countingEmbedder(): Embedder & { calls: string[] } {
    const calls: string[] = [];
    return {
      id: 'fake-3d',
      calls,
      embed: async (texts) => {
        calls.push(...texts);
        return texts.map((t) => Float32Array.from([t.length, 1, 0]));
      },
    };
  }

  it('embeds each section once, then only the sections whose text changed, and deletes removed ones', async () => {
    const sections = (await readKnowledgeSections()).slice(0, 12);
    const embedder = countingEmbedder();
    const first = await ingestKnowledge(db.prisma, { embedder, sections, precomputed: null });
    expect(first).toMatchObject({ sections: 12, written: 12, deleted: 0, embedded: 12, unembedded: 0 });
    expect(await ingestKnowledge(db.prisma, { embedder, sections, precomputed: null })).toMatchObject({ written: 0, embedded: 0 });
    const edited = sections.slice(0, 11).map((s, i) => (i === 3 ? { ...s, body: `${s.body} Edited.` } : i === 4 ? { ...s, tags: ['new-tag'] } : s));
    const second = await ingestKnowledge(db.prisma, { embedder, sections: edited, precomputed: null });
    expect(second).toMatchObject({ written: 2, deleted: 1, embedded: 1 });
    expect(embedder.calls).toHaveLength(13);
    expect(await db.prisma.knowledgeChunk.count()).toBe(11);
  });

  it('stores sections without vectors when the model cannot run (searches then answer text_only)', async () => {
    const sections = (await readKnowledgeSections()).slice(20, 23);
    const broken: Embedder = {
      id: 'broken',
      embed: async () => {
        throw new Error('no model');
      },
    };
    const summary = await ingestKnowledge(db.prisma, { embedder: broken, sections, precomputed: null });
    expect(summary).toMatchObject({ sections: 3, written: 3, unembedded: 3 });
  });
});

describe('reciprocal rank fusion', () => {
  it('sums 1/(60 + rank) over the rankings', () => {
    const scores = fuse([
      ['a', 'b', 'c'],
      ['b', 'c'],
    ]);
    expect(scores.get('a')).toBeCloseTo(1 / 61);
    expect(scores.get('b')).toBeCloseTo(1 / 62 + 1 / 61);
    expect(scores.get('c')).toBeCloseTo(1 / 63 + 1 / 62);
  });
});

describe('measured quality (npm run eval:knowledge)', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.close());

  it('has at least 30 labelled questions, each naming a real note', async () => {
    const notes = new Set((await readKnowledgeSections()).map((s) => s.noteSlug));
    expect(questions.length).toBeGreaterThanOrEqual(30);
    for (const { q, note } of questions) expect(notes.has(note), `${q} → ${note}`).toBe(true);
  });

  it('fused beats words alone and meaning alone on recall@5 and MRR', async () => {
    const result = await evaluateKnowledge(db.prisma, sharedEmbedder(), questions);
    expect(result.fused.recallAt5).toBeGreaterThan(result.text.recallAt5);
    expect(result.fused.recallAt5).toBeGreaterThan(result.semantic.recallAt5);
    expect(result.fused.mrr).toBeGreaterThan(result.text.mrr);
    expect(result.fused.mrr).toBeGreaterThan(result.semantic.mrr);
    expect(result.fused.recallAt5).toBeGreaterThanOrEqual(0.85);
  });
});
