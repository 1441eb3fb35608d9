import type { PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import type { RowReader } from '../db/row-reader.js';
import { parseInput } from '../errors/validation.js';
import { BlogPostsInput } from './blog.inputs.js';
import {
  countPosts,
  readPostBodies,
  readPostBySlug,
  readPostPage,
  readPostsById,
  readShownAuthorsBySlug,
  readShownTagsBySlug,
  readTagCounts,
  type AuthorQuery,
  type BlogPostRow,
  type BlogTagCount,
  type TagQuery,
} from './blog.queries.js';

export type { BlogPostRow, BlogTagCount };

export interface BlogDeps {
  prisma: PrismaClient;
  readRows: RowReader;
  now: () => Date;
}

/** A page read by number (§2.14 page style). */
export interface NumberedPage<T> {
  nodes: T[];
  page: number;
  limit: number;
  hasMore: boolean;
  totalCount: () => Promise<number>;
}

/** Newest first, read one row past the page to know whether more follow; the count is of the same instant's posts. */
export async function listBlogPosts(rawInput: unknown, deps: BlogDeps): Promise<NumberedPage<BlogPostRow>> {
  const { page, limit, tag } = parseInput(BlogPostsInput, rawInput);
  const shown = { now: deps.now(), tag };
  const rows = await readPostPage(shown, { limit: limit + 1, offset: (page - 1) * limit }, deps.readRows);
  const hasMore = rows.length > limit;
  return {
    nodes: hasMore ? rows.slice(0, limit) : rows,
    page,
    limit,
    hasMore,
    totalCount: () => countPosts(shown, deps.readRows),
  };
}

/** One shown post by slug, with its body; anything else (a draft, a future post, an impossible slug) is blog_post_not_found. */
export async function getBlogPost(rawSlug: unknown, deps: BlogDeps): Promise<BlogPostRow> {
  const slug = typeof rawSlug === 'string' ? rawSlug.trim().toLowerCase() : '';
  const post = slug.length <= 300 && slug ? await readPostBySlug(slug, deps.now(), deps.readRows) : undefined;
  if (!post) throw new ApiError('blog_post_not_found', { param: 'slug', message: `No published post has the slug '${slug.slice(0, 100)}'.` });
  return post;
}

/** The plain-text bodies of posts by id, in the order of `ids` (a list page asked for them), in one statement. */
export async function postBodies(ids: readonly string[], deps: Pick<BlogDeps, 'readRows'>): Promise<Array<string | null>> {
  const rows = await readPostBodies(ids, deps.readRows);
  const bodies = new Map(rows.map((row) => [row.id, row.contentPlaintext]));
  return ids.map((id) => bodies.get(id) ?? null);
}

/** Tags of shown posts with their counts, most used first (a tag only drafts use is not listed). */
export async function listBlogTags(deps: Pick<BlogDeps, 'readRows' | 'now'>): Promise<BlogTagCount[]> {
  const counts = await readTagCounts(deps.now(), deps.readRows);
  // Ordered here, as before, so the tie order is the same whatever the database's collation.
  return counts.sort((a, b) => b.postCount - a.postCount || a.slug.localeCompare(b.slug));
}

/** Posts by id for node(id:)/nodes(ids:): shown ones only (published and out), as the list and detail (one statement). */
export function visiblePostsById(ids: string[], deps: BlogDeps) {
  return readPostsById(ids, deps.now(), deps.readRows);
}

/** Authors by slug for node(id:)/nodes(ids:): only those of a shown post (an author of drafts only is never shown). */
export function visibleAuthorsBySlug(slugs: string[], query: AuthorQuery, deps: BlogDeps) {
  return readShownAuthorsBySlug(slugs, query, deps.now(), deps.prisma);
}

/** Tags by slug for node(id:)/nodes(ids:): only those a shown post carries, as /blog/tags lists them. */
export function visibleTagsBySlug(slugs: string[], query: TagQuery, deps: BlogDeps) {
  return readShownTagsBySlug(slugs, query, deps.now(), deps.prisma);
}
