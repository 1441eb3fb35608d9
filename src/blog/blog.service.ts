import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import type { RowReader } from '../db/row-reader.js';
import { parseInput } from '../errors/validation.js';
import { BlogPostsInput } from './blog.inputs.js';

export interface BlogDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  now: () => Date;
}

type PostQuery = { include?: Prisma.BlogPostInclude; select?: Prisma.BlogPostSelect };

/** A page read by number (§2.14 page style). */
export interface NumberedPage<T> {
  nodes: T[];
  page: number;
  limit: number;
  hasMore: boolean;
  totalCount: () => Promise<number>;
}

/** Shown: published, and dated no later than now (a post scheduled for tomorrow is not out yet). Drafts never. */
const visible = (now: Date): Prisma.BlogPostWhereInput => ({ status: 'published', publishedAt: { lte: now } });

/** Newest first; the slug breaks ties so pages never overlap. */
export async function listBlogPosts<T>(rawInput: unknown, query: PostQuery, deps: BlogDeps): Promise<NumberedPage<T>> {
  const { page, limit, tag } = parseInput(BlogPostsInput, rawInput);
  const where: Prisma.BlogPostWhereInput = { AND: [visible(deps.now()), ...(tag ? [{ tags: { some: { tagSlug: tag } } }] : [])] };
  const rows = await deps.prisma.blogPost.findMany({
    ...query,
    where,
    orderBy: [{ publishedAt: 'desc' }, { slug: 'asc' }],
    skip: (page - 1) * limit,
    take: limit + 1,
  });
  const hasMore = rows.length > limit;
  return { nodes: (hasMore ? rows.slice(0, limit) : rows) as T[], page, limit, hasMore, totalCount: () => deps.prisma.blogPost.count({ where }) };
}

/** One shown post by slug; anything else (a draft, a future post, an impossible slug) is blog_post_not_found. */
export async function getBlogPost<T>(rawSlug: unknown, query: PostQuery, deps: BlogDeps): Promise<T> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  const post =
    slug.length <= 300 && slug ? await deps.prisma.blogPost.findFirst({ ...query, where: { AND: [{ slug }, visible(deps.now())] } }) : null;
  if (!post) throw new ApiError('blog_post_not_found', { param: 'slug', message: `No published post has the slug '${slug.slice(0, 100)}'.` });
  return post as T;
}

export interface BlogTagCount {
  slug: string;
  name: string;
  /** Shown posts carrying the tag. */
  postCount: number;
}

/**
 * Tags of shown posts with their counts, most used first (a tag only drafts use is not listed). One statement through
 * the driver: a report, not a model read (a groupBy and a tag list through Prisma cost twice the route's CPU).
 */
export async function listBlogTags(deps: Pick<BlogDeps, 'readRows' | 'now'>): Promise<BlogTagCount[]> {
  const counts = await deps.readRows<BlogTagCount>(
    `SELECT pt."tagSlug" AS slug, t.name, count(*)::int AS "postCount"
       FROM "BlogPostTag" pt JOIN "BlogPost" p ON p.id = pt."postId" JOIN "BlogTag" t ON t.slug = pt."tagSlug"
      WHERE p.status = 'published' AND p."publishedAt" <= $1::timestamp
      GROUP BY pt."tagSlug", t.name`,
    // Prisma keeps DateTime as UTC wall time in a timestamp column: the ISO text read as a timestamp is that time.
    [deps.now().toISOString()],
  );
  // Ordered here, as before, so the tie order is the same whatever the database's collation.
  return counts.sort((a, b) => b.postCount - a.postCount || a.slug.localeCompare(b.slug));
}

type AuthorQuery = { include?: Prisma.BlogAuthorInclude; select?: Prisma.BlogAuthorSelect };
type TagQuery = { include?: Prisma.BlogTagInclude; select?: Prisma.BlogTagSelect };

/** Posts by id for node(id:)/nodes(ids:): shown ones only (published and out), as the list and detail (one statement). */
export function visiblePostsById(ids: string[], query: PostQuery, deps: BlogDeps) {
  return deps.prisma.blogPost.findMany({ ...query, where: { AND: [{ id: { in: ids } }, visible(deps.now())] } });
}

/** Authors by slug for node(id:)/nodes(ids:): only those of a shown post (an author of drafts only is never shown). */
export function visibleAuthorsBySlug(slugs: string[], query: AuthorQuery, deps: BlogDeps) {
  return deps.prisma.blogAuthor.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: visible(deps.now()) } } });
}

/** Tags by slug for node(id:)/nodes(ids:): only those a shown post carries, as /blog/tags lists them. */
export function visibleTagsBySlug(slugs: string[], query: TagQuery, deps: BlogDeps) {
  return deps.prisma.blogTag.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: { post: visible(deps.now()) } } } });
}
