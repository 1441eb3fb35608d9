import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import { countRows, type RowReader } from '../db/row-reader.js';
import { parseInput } from '../errors/validation.js';
import { BlogPostsInput } from './blog.inputs.js';

export interface BlogDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  now: () => Date;
}

/** VISIBLE below as a Prisma filter, for the node loads of authors and tags. */
const visible = (now: Date): Prisma.BlogPostWhereInput => ({ status: 'published', publishedAt: { lte: now } });

/** A post as the blog shows it: the list columns, its tags in order and its author, read as one row. */
export interface BlogPostRow {
  id: string;
  slug: string;
  title: string;
  excerpt: string | null;
  featureImage: string | null;
  publishedAt: Date;
  readingTime: number | null;
  wordCount: number;
  tags: Array<{ slug: string; name: string }>;
  author: { slug: string; name: string; bio: string | null } | null;
  /** Read by the detail only: a list page never loads the bodies it does not return (postBodies reads them if asked). */
  contentPlaintext?: string | null;
}

/** A page read by number (§2.14 page style). */
export interface NumberedPage<T> {
  nodes: T[];
  page: number;
  limit: number;
  hasMore: boolean;
  totalCount: () => Promise<number>;
}

/**
 * Posts are read through the driver, each with its tags and author in the same row, not by Prisma's client: a post has
 * no relation GraphQL walks further, and a Prisma read cost clearly more CPU per request than the same statement
 * through the driver (docs/performance.md, Levers). `publishedAt` is read as UTC: Prisma keeps DateTime as UTC wall
 * time in a timestamp column, and pg would take a bare timestamp for local time.
 */
const POST_COLUMNS = `p.id, p.slug, p.title, p.excerpt, p."featureImage", p."publishedAt" AT TIME ZONE 'UTC' AS "publishedAt",
  p."readingTime", p."wordCount",
  COALESCE((SELECT json_agg(json_build_object('slug', t.slug, 'name', t.name) ORDER BY pt.position)
              FROM "BlogPostTag" pt JOIN "BlogTag" t ON t.slug = pt."tagSlug" WHERE pt."postId" = p.id), '[]'::json) AS tags,
  CASE WHEN a.slug IS NULL THEN NULL ELSE json_build_object('slug', a.slug, 'name', a.name, 'bio', a.bio) END AS author`;
const POSTS = `"BlogPost" p LEFT JOIN "BlogAuthor" a ON a.slug = p."authorSlug"`;
/** Shown: published, and dated no later than $1, now (a post scheduled for tomorrow is not out yet). Drafts never. */
const VISIBLE = `p.status = 'published' AND p."publishedAt" <= $1::timestamp`;
/** $1 as VISIBLE reads it: the ISO text of now, read as a timestamp, is the UTC wall time Prisma stores. */
const nowParam = (deps: Pick<BlogDeps, 'now'>) => deps.now().toISOString();

/** Newest first; the slug breaks ties so pages never overlap. */
export async function listBlogPosts(rawInput: unknown, deps: BlogDeps): Promise<NumberedPage<BlogPostRow>> {
  const { page, limit, tag } = parseInput(BlogPostsInput, rawInput);
  const params: unknown[] = [nowParam(deps)];
  const where = tag
    ? `${VISIBLE} AND EXISTS (SELECT 1 FROM "BlogPostTag" x WHERE x."postId" = p.id AND x."tagSlug" = $${params.push(tag)})`
    : VISIBLE;
  const rows = await deps.readRows<BlogPostRow>(
    `SELECT ${POST_COLUMNS} FROM ${POSTS} WHERE ${where} ORDER BY p."publishedAt" DESC, p.slug LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit + 1, (page - 1) * limit],
  );
  const hasMore = rows.length > limit;
  return {
    nodes: hasMore ? rows.slice(0, limit) : rows,
    page,
    limit,
    hasMore,
    totalCount: () => countRows(deps.readRows, `"BlogPost" p WHERE ${where}`, params),
  };
}

/** One shown post by slug, with its body; anything else (a draft, a future post, an impossible slug) is blog_post_not_found. */
export async function getBlogPost(rawSlug: unknown, deps: BlogDeps): Promise<BlogPostRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  const [post] =
    slug.length <= 300 && slug
      ? await deps.readRows<BlogPostRow>(`SELECT ${POST_COLUMNS}, p."contentPlaintext" FROM ${POSTS} WHERE ${VISIBLE} AND p.slug = $2`, [
          nowParam(deps),
          slug,
        ])
      : [];
  if (!post) throw new ApiError('blog_post_not_found', { param: 'slug', message: `No published post has the slug '${slug.slice(0, 100)}'.` });
  return post;
}

/** The plain-text bodies of posts by id, in the order of `ids` (a list page asked for them), in one statement. */
export async function postBodies(ids: readonly string[], deps: Pick<BlogDeps, 'readRows'>): Promise<Array<string | null>> {
  const rows = await deps.readRows<{ id: string; contentPlaintext: string | null }>(
    `SELECT id, "contentPlaintext" FROM "BlogPost" WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const bodies = new Map(rows.map((row) => [row.id, row.contentPlaintext]));
  return ids.map((id) => bodies.get(id) ?? null);
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
      WHERE ${VISIBLE}
      GROUP BY pt."tagSlug", t.name`,
    [nowParam(deps)],
  );
  // Ordered here, as before, so the tie order is the same whatever the database's collation.
  return counts.sort((a, b) => b.postCount - a.postCount || a.slug.localeCompare(b.slug));
}

type AuthorQuery = { include?: Prisma.BlogAuthorInclude; select?: Prisma.BlogAuthorSelect };
type TagQuery = { include?: Prisma.BlogTagInclude; select?: Prisma.BlogTagSelect };

/** Posts by id for node(id:)/nodes(ids:): shown ones only (published and out), as the list and detail (one statement). */
export function visiblePostsById(ids: string[], deps: BlogDeps) {
  return deps.readRows<BlogPostRow>(`SELECT ${POST_COLUMNS} FROM ${POSTS} WHERE ${VISIBLE} AND p.id = ANY($2::uuid[])`, [nowParam(deps), ids]);
}

/** Authors by slug for node(id:)/nodes(ids:): only those of a shown post (an author of drafts only is never shown). */
export function visibleAuthorsBySlug(slugs: string[], query: AuthorQuery, deps: BlogDeps) {
  return deps.prisma.blogAuthor.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: visible(deps.now()) } } });
}

/** Tags by slug for node(id:)/nodes(ids:): only those a shown post carries, as /blog/tags lists them. */
export function visibleTagsBySlug(slugs: string[], query: TagQuery, deps: BlogDeps) {
  return deps.prisma.blogTag.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: { post: visible(deps.now()) } } } });
}
