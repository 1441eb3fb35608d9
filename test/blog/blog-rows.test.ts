// Posts are read through the driver (src/blog/blog.queries.ts), each with its tags and author, not by Prisma's client.
// These tests hold what they read equal to what Prisma reads for the same question on the database under test: every
// shown post's columns, tags in order and author, every tag's pages and totals, and which posts are out at a given
// instant. The process runs in a time zone far from UTC, so a timestamp read as local time would show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { getBlogPost, listBlogPosts, postBodies, visiblePostsById, type BlogDeps } from '../../src/blog/blog.service.js';
import { testDatabaseKind } from '../support/database.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { runFarFromUtc } from '../support/time-zone.js';

let t: TestApp;
const at = (now: Date): BlogDeps => ({ prisma: t.db.prisma, readRows: t.db.readRows, now: () => now });
runFarFromUtc();
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A post as Prisma reads it, in the shape the blog's rows have. */
const PRISMA_POST = {
  select: {
    id: true,
    slug: true,
    title: true,
    excerpt: true,
    featureImage: true,
    publishedAt: true,
    readingTime: true,
    wordCount: true,
    contentPlaintext: true,
    tags: { select: { tag: { select: { slug: true, name: true } } }, orderBy: { position: 'asc' } },
    author: { select: { slug: true, name: true, bio: true } },
  },
} satisfies Prisma.BlogPostFindManyArgs;
type PrismaPost = Prisma.BlogPostGetPayload<typeof PRISMA_POST>;
const asRow = ({ tags, ...post }: PrismaPost) => ({ ...post, tags: tags.map((link) => link.tag) });
const visible = (now: Date): Prisma.BlogPostWhereInput => ({ status: 'published', publishedAt: { lte: now } });
const listed = ({ contentPlaintext: _body, ...post }: ReturnType<typeof asRow>) => post;

describe(`blog posts read through the driver (${testDatabaseKind()})`, () => {
  it('are the posts Prisma reads: every column, the tags in order, the author, the body', async () => {
    const now = new Date();
    const posts = (await t.db.prisma.blogPost.findMany({ ...PRISMA_POST, where: visible(now), orderBy: { slug: 'asc' } })).map(asRow);
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) expect(await getBlogPost(post.slug, at(now))).toEqual(post);
    const byId = await visiblePostsById(
      posts.map((post) => post.id),
      at(now),
    );
    expect(byId.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(posts.map(listed).sort((a, b) => a.slug.localeCompare(b.slug)));
    const bodies = await postBodies(
      posts.map((post) => post.id),
      t.db,
    );
    posts.forEach((post, i) => expect(bodies[i]).toBe(post.contentPlaintext));
  });

  it('pages every tag, and no tag, as Prisma does, with the same totals', async () => {
    const now = new Date();
    const tags = await t.db.prisma.blogTag.findMany({ select: { slug: true } });
    for (const tag of [undefined, ...tags.map((row) => row.slug)]) {
      const where: Prisma.BlogPostWhereInput = { AND: [visible(now), ...(tag ? [{ tags: { some: { tagSlug: tag } } }] : [])] };
      const all = (await t.db.prisma.blogPost.findMany({ ...PRISMA_POST, where, orderBy: [{ publishedAt: 'desc' }, { slug: 'asc' }] })).map(asRow);
      for (const [page, limit] of [
        [1, 7],
        [2, 7],
        [1, 100],
      ]) {
        const read = await listBlogPosts({ page, limit, tag }, at(now));
        expect(read.nodes, `${tag} page ${page}`).toEqual(all.slice((page - 1) * limit, page * limit).map(listed));
        expect(read.hasMore).toBe(all.length > page * limit);
        expect(await read.totalCount()).toBe(all.length);
      }
    }
  });

  it('reads a page in one statement with its tags and authors, and the bodies a page asks for in one more', async () => {
    const list = (limit: number, fields: string) => t.graphql(`{ blogPosts(limit: ${limit}) { nodes { ${fields} } } }`);
    // The key lookup, then the page: tags and author come with it, for 1 post as for 40.
    for (const limit of [1, 40]) expect(await t.statements(() => list(limit, 'slug tags { slug } primaryAuthor { name }'))).toBe(2);
    // Bodies are not part of a page's row; asked for, all of them are read by one statement, whatever the page size.
    for (const limit of [1, 40]) expect(await t.statements(() => list(limit, 'slug contentPlaintext'))).toBe(3);
    const page = await list(3, 'slug contentPlaintext');
    for (const node of page.body.data.blogPosts.nodes) {
      const post = await t.db.prisma.blogPost.findUniqueOrThrow({ where: { slug: node.slug }, select: { contentPlaintext: true } });
      expect(node.contentPlaintext).toBe(post.contentPlaintext);
    }
  });

  it('shows a post from the instant it is dated, as Prisma does, whatever the process time zone', async () => {
    const dated = await t.db.prisma.blogPost.findMany({ where: { status: 'published', publishedAt: { not: null } }, select: { publishedAt: true } });
    for (const { publishedAt } of dated.slice(0, 10)) {
      for (const now of [new Date(publishedAt!.getTime() - 1), publishedAt!]) {
        const expected = await t.db.prisma.blogPost.count({ where: visible(now) });
        expect(await (await listBlogPosts({ limit: 1 }, at(now))).totalCount(), now.toISOString()).toBe(expected);
      }
    }
  });
});
