import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { camelKeys, createTestApp, expectGraphQLError, expectRestError, type TestApp } from '../support/app.js';
import { countWords, markdownToPlaintext } from '../../src/blog/blog.content.js';

const LIST_FIELDS = ['excerpt', 'feature_image', 'primary_author', 'published_at', 'reading_time', 'slug', 'tags', 'title', 'url'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function allPosts(query = '') {
  const posts: any[] = [];
  for (let page = 1; page < 50; page++) {
    const res = await t.rest(`/api/v1/blog/posts?limit=7&page=${page}${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination).toEqual({ limit: 7, page, has_more: expect.any(Boolean) });
    posts.push(...res.body.data);
    if (!res.body.pagination.has_more) break;
  }
  return posts;
}

describe('GET /api/v1/blog/posts', () => {
  it('lists at least 40 published posts newest first with §2.13 fields; drafts never show', async () => {
    const res = await t.rest('/api/v1/blog/posts');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'pagination', 'request_id']);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.pagination).toEqual({ limit: 20, page: 1, has_more: true });
    for (const p of res.body.data) {
      expect(Object.keys(p).sort()).toEqual(LIST_FIELDS);
      expect(p.url).toBe(`http://api.test/blog/${p.slug}`);
      expect(Object.keys(p.primary_author).sort()).toEqual(['name', 'slug', 'url']);
      expect(p.tags.length).toBeGreaterThan(0);
      for (const tag of p.tags) expect(Object.keys(tag).sort()).toEqual(['name', 'slug']);
      expect(p.reading_time).toBeGreaterThanOrEqual(1);
      expect(new Date(p.published_at).toISOString()).toBe(p.published_at);
    }
    const posts = await allPosts();
    expect(posts.length).toBeGreaterThanOrEqual(40);
    expect(new Set(posts.map((p) => p.slug)).size).toBe(posts.length);
    const dates = posts.map((p) => p.published_at);
    expect(dates).toEqual([...dates].sort().reverse());
    const drafts = await t.db.prisma.blogPost.findMany({ where: { status: 'draft' } });
    expect(drafts.length).toBeGreaterThan(0);
    for (const d of drafts) expect(posts.some((p) => p.slug === d.slug)).toBe(false);
    expect(posts.length).toBe(await t.db.prisma.blogPost.count({ where: { status: 'published' } }));
  });

  it('filters by tag slug', async () => {
    const posts = await allPosts('&tag=budget');
    expect(posts.length).toBeGreaterThan(2);
    for (const p of posts) expect(p.tags.map((x: { slug: string }) => x.slug)).toContain('budget');
    expect((await t.rest('/api/v1/blog/posts?tag=no-such-tag')).body.data).toEqual([]);
  });

  it('refuses bad page, limit and tag naming them', async () => {
    for (const bad of ['0', '-1', '1.5', 'x']) expectRestError(await t.rest(`/api/v1/blog/posts?page=${bad}`), 400, 'invalid_parameters', 'page');
    for (const bad of ['0', '101', 'x']) expectRestError(await t.rest(`/api/v1/blog/posts?limit=${bad}`), 400, 'invalid_parameters', 'limit');
    expectRestError(await t.rest('/api/v1/blog/posts?tag=Not%20A%20Slug!'), 400, 'invalid_parameters', 'tag');
    const past = await t.rest('/api/v1/blog/posts?page=1000');
    expect(past.body).toMatchObject({ data: [], pagination: { page: 1000, limit: 20, has_more: false } });
  });
});

describe('GET /api/v1/blog/posts/{slug}', () => {
  it('returns the detail with word_count and content_plaintext', async () => {
    const list = await t.rest('/api/v1/blog/posts?limit=1');
    const slug = list.body.data[0].slug;
    const res = await t.rest(`/api/v1/blog/posts/${slug}`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([...LIST_FIELDS, 'content_plaintext', 'word_count'].sort());
    const { content_plaintext: text, word_count: words, ...item } = res.body.data;
    expect(item).toEqual(list.body.data[0]);
    expect(text).not.toMatch(/^#|\*\*/m);
    expect(words).toBe(countWords(text));
  });

  it('answers 404 blog_post_not_found for unknown slugs and drafts', async () => {
    expectRestError(await t.rest('/api/v1/blog/posts/no-such-post'), 404, 'blog_post_not_found', 'slug');
    const draft = await t.db.prisma.blogPost.findFirstOrThrow({ where: { status: 'draft' } });
    expectRestError(await t.rest(`/api/v1/blog/posts/${draft.slug}`), 404, 'blog_post_not_found', 'slug');
  });
});

describe('blog tags against the clock', () => {
  it('counts a post from the instant it is dated, on both surfaces, and a draft never', async () => {
    // Another app on the same database with a clock of its own: the post is dated one hour after the clock's start.
    let clock = new Date('2030-06-01T12:00:00.000Z');
    const timed = await createTestApp({ database: t.db, now: () => clock });
    try {
      const dated = new Date(clock.getTime() + 60 * 60_000);
      await t.db.prisma.blogTag.create({ data: { slug: 'scheduled-tag', name: 'Scheduled' } });
      await t.db.prisma.blogPost.create({
        data: {
          slug: 'scheduled-post',
          title: 'Out in an hour',
          status: 'published',
          contentMarkdown: 'Soon.',
          contentHash: 'scheduled-post-test',
          wordCount: 1,
          publishedAt: dated,
          tags: { create: [{ tagSlug: 'scheduled-tag', position: 0 }] },
        },
      });
      const counted = async () => {
        const rest = await timed.rest('/api/v1/blog/tags');
        expect(rest.status, rest.text).toBe(200);
        const gql = await timed.graphql('{ blogTags { slug postCount } }');
        const inGql = gql.body.data.blogTags.find((x: { slug: string }) => x.slug === 'scheduled-tag')?.postCount ?? 0;
        const inRest = rest.body.data.find((x: { slug: string }) => x.slug === 'scheduled-tag')?.post_count ?? 0;
        expect(inGql).toBe(inRest);
        return inRest;
      };
      expect(await counted()).toBe(0);
      clock = new Date(dated.getTime() - 1);
      expect(await counted()).toBe(0);
      clock = dated;
      expect(await counted()).toBe(1);
      await t.db.prisma.blogPost.update({ where: { slug: 'scheduled-post' }, data: { status: 'draft' } });
      expect(await counted()).toBe(0);
    } finally {
      await t.db.prisma.blogPost.deleteMany({ where: { slug: 'scheduled-post' } });
      await t.db.prisma.blogTag.deleteMany({ where: { slug: 'scheduled-tag' } });
      await timed.close();
    }
  });
});

describe('GET /api/v1/blog/tags', () => {
  it('lists tags with post_count of published posts only', async () => {
    const res = await t.rest('/api/v1/blog/tags');
    expect(res.status, res.text).toBe(200);
    const posts = await allPosts();
    for (const tag of res.body.data) {
      expect(Object.keys(tag).sort()).toEqual(['name', 'post_count', 'slug']);
      expect(tag.post_count).toBe(posts.filter((p) => p.tags.some((x: { slug: string }) => x.slug === tag.slug)).length);
    }
    const counts = res.body.data.map((x: { post_count: number }) => x.post_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // A tag only a draft carries is not listed.
    expect(res.body.data.some((x: { slug: string }) => x.slug === 'secret-draft-tag')).toBe(false);
    // The key lookup and one statement for the tags with their counts, on both surfaces.
    expect(await t.statements(() => t.rest('/api/v1/blog/tags'))).toBe(2);
    expect(await t.statements(() => t.graphql('{ blogTags { slug name postCount } }'))).toBe(2);
  });
});

describe('GraphQL blog', () => {
  it('returns what REST returns', async () => {
    const sel = 'slug title excerpt featureImage publishedAt readingTime tags { slug name } primaryAuthor { name slug url } url';
    const rest = await t.rest('/api/v1/blog/posts?limit=3&page=2&tag=style');
    const gql = await t.graphql(`{ blogPosts(limit: 3, page: 2, tag: "style") { page limit hasMore totalCount nodes { ${sel} } } }`);
    expect(gql.status, gql.text).toBe(200);
    expect(gql.body.data.blogPosts.nodes).toEqual(camelKeys(rest.body.data));
    expect(gql.body.data.blogPosts.hasMore).toBe(rest.body.pagination.has_more);
    const tags = await t.graphql('{ blogTags { slug name postCount } }');
    expect(tags.body.data.blogTags).toEqual(camelKeys((await t.rest('/api/v1/blog/tags')).body.data));
    expectGraphQLError(await t.graphql('{ blogPost(slug: "nope") { slug } }'), 'blog_post_not_found', 'slug');
    expectGraphQLError(await t.graphql('{ blogPosts(limit: 0) { page } }'), 'invalid_parameters', 'limit');
  });
});

describe('markdownToPlaintext', () => {
  it('drops Markdown syntax and keeps the words', () => {
    expect(markdownToPlaintext('## Title\n\nSome **bold** and _em_ text with a [link](http://x).\n\n- item one\n- item two')).toBe(
      'Title\n\nSome bold and em text with a link.\n\nitem one\nitem two',
    );
  });
});
