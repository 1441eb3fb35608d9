// Where cached answers live: shared in Redis by every node (and bypassed when Redis is away), retired by catalogue
// writes, and never kept when an answer is degraded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueKeyPrefix, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { Database } from '../../src/db/client.js';
import { followCatalogueGeneration, readCatalogueGeneration } from '../../src/cache/catalogue-generation.js';
import { useKnowledgeEmbedder } from '../../src/knowledge/knowledge.runtime.js';
import { createLogger } from '../../src/logging/logger.js';

const redisUrl = process.env.TEST_REDIS_URL;
let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

describe('catalogue writes retire cached answers', () => {
  it('the seed raised the generation, a write raises it again, and a running node follows it', async () => {
    const before = await readCatalogueGeneration(db.prisma);
    expect(before).toBeGreaterThanOrEqual(1); // the test database was seeded
    const followed = await followCatalogueGeneration(db.prisma, createLogger({ level: 'silent' }), { intervalMs: 10 });
    try {
      expect(followed.current()).toBe(before);
      await db.prisma.$executeRawUnsafe(`UPDATE "VendorCategory" SET name = name`);
      expect(await readCatalogueGeneration(db.prisma)).toBe(before + 1);
      await expect.poll(() => followed.current()).toBe(before + 1);
    } finally {
      followed.stop();
    }
  });

  it('a cached answer is not served after the generation moved', async () => {
    let generation = 1;
    const t = await createTestApp({ database: db, responseCache: { ttlSeconds: 300 }, catalogueGeneration: () => generation });
    try {
      const path = '/api/v1/vendors?limit=2';
      await t.rest(path);
      expect((await t.rest(path)).headers.get('x-cache')).toBe('HIT');
      generation = 2;
      expect((await t.rest(path)).headers.get('x-cache')).toBe('MISS');
    } finally {
      await t.close();
    }
  });
});

describe('a degraded answer is never kept', () => {
  it('knowledge search answered from words alone is executed again next time', async () => {
    const t = await createTestApp({ database: db, responseCache: { ttlSeconds: 300 } });
    useKnowledgeEmbedder(db.prisma, { id: 'broken', embed: async () => Promise.reject(new Error('model failed to load')) });
    try {
      const path = '/api/v1/knowledge/search?q=deposit+schedule';
      const first = await t.rest(path);
      expect(first.body.degraded).toBe('text_only');
      expect((await t.rest(path)).headers.get('x-cache')).toBe('MISS');
    } finally {
      useKnowledgeEmbedder(db.prisma, null);
      await t.close();
    }
  });
});

describe('Redis away: the cache is bypassed, every answer is computed', () => {
  it('answers 200 MISS with Redis unreachable, and its breaker opens', async () => {
    const t = await createTestApp({
      database: db,
      redisUrl: null,
      responseCache: { ttlSeconds: 300, shared: true, redisUrl: 'redis://127.0.0.1:1' },
    });
    try {
      for (let i = 0; i < 4; i++) {
        const res = await t.rest('/api/v1/venues?limit=2');
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('x-cache')).toBe('MISS');
      }
      expect(t.app.responseCacheState()).toBe('open');
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!redisUrl)('two nodes share answers through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const keyPrefix = uniqueKeyPrefix();
    a = await createTestApp({ database: db, responseCache: { ttlSeconds: 300, shared: true, keyPrefix } });
    b = await createTestApp({ database: db, responseCache: { ttlSeconds: 300, shared: true, keyPrefix } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('an answer computed on one node is a hit on the other, with the same body', async () => {
    const query = '{ vendorCategories { slug name } }';
    const first = await a.graphql(query);
    expect(first.headers.get('x-cache')).toBe('MISS');
    await expect.poll(async () => (await b.graphql(query)).headers.get('x-cache')).toBe('HIT');
    expect((await b.graphql(query)).text).toBe(first.text);
    expect(b.app.responseCacheState()).toBe('closed');
  });
});
if (!redisUrl) console.warn('[response-cache.stores] Redis sharing skipped: needs TEST_REDIS_URL');
