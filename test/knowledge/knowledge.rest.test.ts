import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, withEnumNames, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { useKnowledgeEmbedder } from '../../src/knowledge/knowledge.runtime.js';
import { KNOWLEDGE_NOTE } from '../../src/knowledge/knowledge.service.js';
import type { Embedder } from '../../src/knowledge/knowledge.embedder.js';

const CHUNK_FIELDS = ['body', 'heading', 'kind', 'score', 'slug', 'title'];
const SELECTION = 'data { title heading body kind slug score } query asOf note degraded';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = (query: string) => t.rest(`/api/v1/knowledge/search?${query}`);
const slugsOf = (res: { body: { data: Array<{ slug: string }> } }) => res.body.data.map((c) => c.slug);

describe('GET /api/v1/knowledge/search', () => {
  it('answers by meaning and words: §2.7 chunks in rank order, verbatim, with query, as_of and note', async () => {
    const res = await search(`q=${encodeURIComponent('do we have to feed the DJ and the photographer')}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['as_of', 'data', 'note', 'query', 'request_id']);
    expect(res.body.data).toHaveLength(5);
    for (const chunk of res.body.data) {
      expect(Object.keys(chunk).sort()).toEqual(CHUNK_FIELDS);
      expect(chunk.kind).toBe('knowledge');
      expect(chunk.slug).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)+$/);
      const stored = await t.db.prisma.knowledgeChunk.findUniqueOrThrow({ where: { slug: chunk.slug } });
      expect([chunk.title, chunk.heading, chunk.body]).toEqual([stored.title, stored.heading, stored.body]);
    }
    expect(res.body.data[0].slug.startsWith('vendors/vendor-meals-and-breaks')).toBe(true);
    const scores = res.body.data.map((c: { score: number }) => c.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0);
    // Two rankings fused: a first place in both scores 2/(60+1).
    expect(scores[0]).toBeLessThanOrEqual(2 / 61 + 1e-6);
    expect(res.body.query).toBe('do we have to feed the DJ and the photographer');
    expect(res.body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.note).toBe(KNOWLEDGE_NOTE);
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  });

  it("returns a note's opening text with an empty heading", async () => {
    const res = await search('q=where+the+wedding+money+goes&limit=10');
    const opening = res.body.data.find((c: { slug: string }) => c.slug === 'budgeting/where-the-money-goes');
    expect(opening).toMatchObject({ heading: '', title: 'Where the wedding money goes' });
  });

  it('finds a note by meaning when the question shares almost no words with it', async () => {
    const res = await search(`q=${encodeURIComponent('where do I put mom and dad who split up')}`);
    expect(slugsOf(res).some((s: string) => s.startsWith('guests/seating-and-family-dynamics'))).toBe(true);
  });

  it('accepts limit 1 to 10 (default 5) and refuses others naming limit', async () => {
    expect((await search('q=deposit&limit=1')).body.data).toHaveLength(1);
    expect((await search('q=deposit&limit=10')).body.data).toHaveLength(10);
    for (const bad of ['0', '11', '-1', '2.5', 'ten', ''])
      expectRestError(await search(`q=deposit&limit=${bad}`), 400, 'invalid_parameters', 'limit');
  });

  it('refuses a missing, too short or too long q naming q', async () => {
    expectRestError(await search(''), 400, 'invalid_parameters', 'q');
    expectRestError(await search('limit=3'), 400, 'invalid_parameters', 'q');
    for (const bad of ['ab', '%20%20ab%20', 'x'.repeat(301)]) {
      const res = await search(`q=${bad}`);
      expectRestError(res, 400, 'invalid_parameters', 'q');
      expect(res.body.error.message).toContain('3 to 300');
    }
    expect((await search(`q=${'x'.repeat(300)}`)).status).toBe(200);
    expect((await search('q=tip')).status).toBe(200);
    expectRestError(await search('q=tips&colour=blue'), 400, 'invalid_parameters', 'colour');
  });

  it('tags boost matching sections and never filter', async () => {
    const q = 'q=how+much+should+we+spend&limit=10';
    const plain = await search(q);
    const boosted = await search(`${q}&tags=destination`);
    expect(boosted.status, boosted.text).toBe(200);
    expect(boosted.body.data).toHaveLength(10);
    const tagged = new Set(
      (await t.db.prisma.knowledgeChunk.findMany({ where: { tags: { has: 'destination' } }, select: { slug: true } })).map((c) => c.slug),
    );
    const count = (slugs: string[]) => slugs.filter((s) => tagged.has(s)).length;
    expect(count(slugsOf(boosted))).toBeGreaterThan(count(slugsOf(plain)));
    expect(slugsOf(boosted).some((s: string) => !tagged.has(s))).toBe(true);
    // A tag nothing carries changes nothing.
    expect(slugsOf(await search(`${q}&tags=no-such-tag`))).toEqual(slugsOf(plain));
    expectRestError(await search(`${q}&tags=bad%20tag!`), 400, 'invalid_parameters', 'tags');
  });
});

describe('GraphQL knowledgeSearch', () => {
  it('returns what REST returns, degraded null', async () => {
    const q = 'what documents do we need to marry in Italy';
    const rest = await search(`q=${encodeURIComponent(q)}&limit=4&tags=italy`);
    const gql = await t.graphql(`query($q: String!) { knowledgeSearch(q: $q, limit: 4, tags: ["italy"]) { ${SELECTION} } }`, { q });
    expect(gql.status, gql.text).toBe(200);
    const { request_id: _id, ...body } = rest.body;
    expect(gql.body.data.knowledgeSearch).toEqual({ ...(withEnumNames(camelKeys(body), ['kind']) as object), degraded: null });
  });

  it('gives the same codes as REST, naming the argument', async () => {
    for (const args of ['q: "ab"', `q: "${'y'.repeat(301)}"`])
      expectGraphQLError(await t.graphql(`{ knowledgeSearch(${args}) { query } }`), 'invalid_parameters', 'q');
    for (const limit of [0, 11])
      expectGraphQLError(await t.graphql(`{ knowledgeSearch(q: "deposits", limit: ${limit}) { query } }`), 'invalid_parameters', 'limit');
  });
});

describe('when a half is down', () => {
  it('answers from words alone with degraded text_only when the semantic half fails (both surfaces)', async () => {
    const broken: Embedder = {
      id: 'broken',
      embed: async () => {
        throw new Error('model failed to load');
      },
    };
    useKnowledgeEmbedder(t.db.prisma, broken);
    try {
      const res = await search('q=how+much+deposit+do+venues+ask+for');
      expect(res.status, res.text).toBe(200);
      expect(res.body.degraded).toBe('text_only');
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data[0].slug.startsWith('contracts/deposits-and-payment-schedules')).toBe(true);
      // One ranking only: the first place scores 1/(60+1).
      expect(res.body.data[0].score).toBeCloseTo(1 / 61, 6);
      const gql = await t.graphql('{ knowledgeSearch(q: "deposit schedule") { degraded data { slug } } }');
      expect(gql.body.data.knowledgeSearch.degraded).toBe('TEXT_ONLY');
      expect(t.logs.join('')).toContain('semantic half unavailable');
    } finally {
      useKnowledgeEmbedder(t.db.prisma, null);
    }
    expect((await search('q=deposit')).body.degraded).toBeUndefined();
  });

  it('answers 503 knowledge_unavailable when the store fails (both surfaces)', async () => {
    await t.db.prisma.$executeRawUnsafe('ALTER TABLE "KnowledgeChunk" RENAME TO "KnowledgeChunkAway"');
    try {
      const res = await search('q=deposit');
      expectRestError(res, 503, 'knowledge_unavailable');
      expect(res.body.error.type).toBe('internal_error');
      const gql = await t.graphql('{ knowledgeSearch(q: "deposit") { query } }');
      expectGraphQLError(gql, 'knowledge_unavailable');
      expect(gql.body.errors[0].extensions.status).toBe(503);
    } finally {
      await t.db.prisma.$executeRawUnsafe('ALTER TABLE "KnowledgeChunkAway" RENAME TO "KnowledgeChunk"');
    }
    expect((await search('q=deposit')).status).toBe(200);
  });
});
