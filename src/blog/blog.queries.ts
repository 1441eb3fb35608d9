import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { countRows, type RowReader } from '../db/row-reader.js';

/**
 * The blog module's reads: a page of shown posts and its count, a post by slug, posts by id, their bodies, the tags of
 * shown posts with their counts (§2.13), and authors and tags by slug for node(id:). A post is shown when published and
 * dated no later than `now`, which each read takes from its caller.
 *
 * Posts are read through the driver, each with its tags and author in the same row, not by Prisma's client: a post has
 * no relation GraphQL walks further, and a Prisma read cost clearly more CPU per request than the same statement
 * through the driver (docs/performance.md, Levers). `publishedAt` is read as UTC: Prisma keeps DateTime as UTC wall
 * time in a timestamp column, and pg would take a bare timestamp for local time.
 */

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

export interface BlogTagCount {
  slug: string;
  name: string;
  /** Shown posts carrying the tag. */
  postCount: number;
}

/** Which shown posts a list reads: those out at `now`, with `tag` when given. */
export interface ShownPosts {
  now: Date;
  tag?: string;
}

/** What GraphQL asks of an author or tag row (plugin-prisma's query of the selection). */
export type AuthorQuery = { include?: Prisma.BlogAuthorInclude; select?: Prisma.BlogAuthorSelect };
export type TagQuery = { include?: Prisma.BlogTagInclude; select?: Prisma.BlogTagSelect };

const POST_COLUMNS = `p.id, p.slug, p.title, p.excerpt, p."featureImage", p."publishedAt" AT TIME ZONE 'UTC' AS "publishedAt",
  p."readingTime", p."wordCount",
  COALESCE((SELECT json_agg(json_build_object('slug', t.slug, 'name', t.name) ORDER BY pt.position)
              FROM "BlogPostTag" pt JOIN "BlogTag" t ON t.slug = pt."tagSlug" WHERE pt."postId" = p.id), '[]'::json) AS tags,
  CASE WHEN a.slug IS NULL THEN NULL ELSE json_build_object('slug', a.slug, 'name', a.name, 'bio', a.bio) END AS author`;
const POSTS = `"BlogPost" p LEFT JOIN "BlogAuthor" a ON a.slug = p."authorSlug"`;
/** Shown: published, and dated no later than $1, now (a post scheduled for tomorrow is not out yet). Drafts never. */
const VISIBLE = `p.status = 'published' AND p."publishedAt" <= $1::timestamp`;
/** $1 as VISIBLE reads it: the ISO text of now, read as a timestamp, is the UTC wall time Prisma stores. */
const nowParam = (now: Date) => now.toISOString();

/** VISIBLE as a Prisma filter, for the node loads of authors and tags. */
const visible = (now: Date): Prisma.BlogPostWhereInput => ({ status: 'published', publishedAt: { lte: now } });

/** The WHERE of a list of shown posts and its parameters, $1 being now. */
function shownPostsWhere({ now, tag }: ShownPosts): { where: string; params: unknown[] } {
  const params: unknown[] = [nowParam(now)];
  const where = tag
    ? `${VISIBLE} AND EXISTS (SELECT 1 FROM "BlogPostTag" x WHERE x."postId" = p.id AND x."tagSlug" = $${params.push(tag)})`
    : VISIBLE;
  return { where, params };
}

/** `limit` shown posts from `offset`, newest first; the slug breaks ties so pages never overlap. */
export function readPostPage(shown: ShownPosts, { limit, offset }: { limit: number; offset: number }, readRows: RowReader) {
  const { where, params } = shownPostsWhere(shown);
  return readRows<BlogPostRow>(
    `SELECT ${POST_COLUMNS} FROM ${POSTS} WHERE ${where} ORDER BY p."publishedAt" DESC, p.slug LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
}

/** How many posts the list of `shown` holds. */
export function countPosts(shown: ShownPosts, readRows: RowReader): Promise<number> {
  const { where, params } = shownPostsWhere(shown);
  return countRows(readRows, `"BlogPost" p WHERE ${where}`, params);
}

/** The post out at `now` with this slug, with its body, or undefined. */
export async function readPostBySlug(slug: string, now: Date, readRows: RowReader): Promise<BlogPostRow | undefined> {
  const [post] = await readRows<BlogPostRow>(`SELECT ${POST_COLUMNS}, p."contentPlaintext" FROM ${POSTS} WHERE ${VISIBLE} AND p.slug = $2`, [
    nowParam(now),
    slug,
  ]);
  return post;
}

/** The posts out at `now` among `ids`, in one statement. */
export function readPostsById(ids: string[], now: Date, readRows: RowReader) {
  return readRows<BlogPostRow>(`SELECT ${POST_COLUMNS} FROM ${POSTS} WHERE ${VISIBLE} AND p.id = ANY($2::uuid[])`, [nowParam(now), ids]);
}

/** The plain-text bodies of posts among `ids`, shown or not, in no order. */
export function readPostBodies(ids: readonly string[], readRows: RowReader) {
  return readRows<{ id: string; contentPlaintext: string | null }>(`SELECT id, "contentPlaintext" FROM "BlogPost" WHERE id = ANY($1::uuid[])`, [ids]);
}

/**
 * Tags of posts out at `now` with their counts, in no order (a tag only drafts use is not read). One statement through
 * the driver: a report, not a model read (a groupBy and a tag list through Prisma cost twice the route's CPU).
 */
export function readTagCounts(now: Date, readRows: RowReader) {
  return readRows<BlogTagCount>(
    `SELECT pt."tagSlug" AS slug, t.name, count(*)::int AS "postCount"
       FROM "BlogPostTag" pt JOIN "BlogPost" p ON p.id = pt."postId" JOIN "BlogTag" t ON t.slug = pt."tagSlug"
      WHERE ${VISIBLE}
      GROUP BY pt."tagSlug", t.name`,
    [nowParam(now)],
  );
}

/** Authors among `slugs` with a post out at `now` (an author of drafts only is never shown). */
export function readShownAuthorsBySlug(slugs: string[], query: AuthorQuery, now: Date, prisma: PrismaClient) {
  return prisma.blogAuthor.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: visible(now) } } });
}

/** Tags among `slugs` that a post out at `now` carries, as /blog/tags lists them. */
export function readShownTagsBySlug(slugs: string[], query: TagQuery, now: Date, prisma: PrismaClient) {
  return prisma.blogTag.findMany({ ...query, where: { slug: { in: slugs }, posts: { some: { post: visible(now) } } } });
}
