// The planning-content routes against their OpenAPI description: live responses of every route and status match
// the document, and the offset, page and optional-key envelopes are described as the adapter writes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesOpenApi } from '../support/openapi-responses.js';
import { useKnowledgeEmbedder } from '../../src/knowledge/knowledge.runtime.js';

let t: TestApp;
let doc: OpenAPIV3_1.Document;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.rest('/api/v1/openapi.json', { key: null })).body;
});
afterAll(() => t.close());

// JSON of many shapes; tests navigate it freely.
type Loose = any;
const component = (name: string): Loose => doc.components!.schemas![name];
const bodyOf = (path: string): Loose => {
  const ref = (doc.paths![path]!.get!.responses['200'] as Loose).content['application/json'].schema.$ref as string;
  return component(ref.split('/').pop()!);
};

describe('OpenAPI description of the planning-content routes', () => {
  it('describes offset-style, page-style and knowledge envelopes', () => {
    expect(component('OffsetPagination')).toMatchObject({ required: ['limit', 'offset', 'total', 'has_more'] });
    expect(component('PagePagination')).toMatchObject({ required: ['limit', 'page', 'has_more'] });
    expect(bodyOf('/inspiration').required).toEqual(['data', 'pagination', 'request_id']);
    expect(bodyOf('/blog/posts').required).toEqual(['data', 'pagination', 'request_id']);
    const knowledge = bodyOf('/knowledge/search');
    expect(knowledge.required).toEqual(['data', 'query', 'as_of', 'note', 'request_id']);
    expect(knowledge.properties.degraded.type).toBe('string');
    const params = doc.paths!['/inspiration']!.get!.parameters as Loose[];
    expect(params.find((p) => p.name === 'style').schema.enum).toContain('bohemian');
    const responses = doc.paths!['/knowledge/search']!.get!.responses as Loose;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '503']));
  });

  it('every live answer matches the document', async () => {
    const photo = await t.db.prisma.inspirationPhoto.findFirstOrThrow({ orderBy: { position: 'asc' } });
    const post = await t.db.prisma.blogPost.findFirstOrThrow({ where: { status: 'published' } });
    const paths = [
      '/api/v1/knowledge/search?q=deposits',
      '/api/v1/knowledge/search?q=ab',
      '/api/v1/inspiration?limit=3',
      '/api/v1/inspiration?style=plaid',
      `/api/v1/inspiration/${photo.id}`,
      '/api/v1/inspiration/nope',
      '/api/v1/inspiration/0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11',
      '/api/v1/blog/posts?limit=2',
      `/api/v1/blog/posts/${post.slug}`,
      '/api/v1/blog/posts/nope',
      '/api/v1/blog/tags',
      '/api/v1/blog/posts?page=0',
    ];
    for (const path of paths) {
      const res = await t.rest(path);
      expectMatchesOpenApi(doc, 'GET', path, res.status, res.body);
    }
    useKnowledgeEmbedder(t.db.prisma, {
      id: 'down',
      embed: async () => {
        throw new Error('down');
      },
    });
    try {
      const degraded = await t.rest('/api/v1/knowledge/search?q=deposits');
      expect(degraded.body.degraded).toBe('text_only');
      expectMatchesOpenApi(doc, 'GET', '/api/v1/knowledge/search', 200, degraded.body);
    } finally {
      useKnowledgeEmbedder(t.db.prisma, null);
    }
  });
});
