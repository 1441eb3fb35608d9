// Blog posts (§2.13) live as Markdown under content/blog/<slug>.md with `key: value` frontmatter; authors in
// content/blog/authors.json. This file reads them and derives what the API shows: plaintext, word count, reading time.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { slugify } from '../catalogue/slug.js';
import { listOf, parseFrontmatter } from '../knowledge/knowledge.content.js';
import { packagePath } from '../config/paths.js';

export const BLOG_DIR = packagePath('content', 'blog');
/** Words a reader gets through per minute, for reading_time. @default 230 */
export const WORDS_PER_MINUTE = 230;

export interface BlogAuthorSource {
  slug: string;
  name: string;
  bio?: string;
}

export interface BlogPostSource {
  slug: string;
  title: string;
  status: 'published' | 'draft';
  publishedAt: Date | null;
  excerpt: string | null;
  featureImage: string | null;
  authorSlug: string | null;
  tags: Array<{ slug: string; name: string }>;
  contentMarkdown: string;
  contentPlaintext: string;
  wordCount: number;
  readingTime: number;
  contentHash: string;
}

/** Markdown → plain text: headings, emphasis, links, images, list and quote markers dropped; paragraphs kept. */
export function markdownToPlaintext(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]{0,3}>[ \t]?/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+\.)[ \t]+/gm, '')
    .replace(/(\*\*|__|\*|_|`)(?=\S)([^*_`]*?\S)\1/g, '$2')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export const countWords = (text: string) => (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;

export function parseBlogPost(slug: string, text: string): BlogPostSource {
  const { attributes: a, body } = parseFrontmatter(text, slug);
  if (!a.title) throw new Error(`${slug}: a post needs a title`);
  const status = a.status === 'draft' ? 'draft' : 'published';
  const publishedAt = a.published ? new Date(a.published) : null;
  if (publishedAt && Number.isNaN(publishedAt.getTime())) throw new Error(`${slug}: bad published date`);
  if (status === 'published' && !publishedAt) throw new Error(`${slug}: a published post needs published: <ISO date>`);
  const contentMarkdown = body.trim();
  const contentPlaintext = markdownToPlaintext(contentMarkdown);
  const wordCount = countWords(contentPlaintext);
  return {
    slug,
    title: a.title,
    status,
    publishedAt: status === 'published' ? publishedAt : null,
    excerpt: a.excerpt || null,
    featureImage: a.feature_image || null,
    authorSlug: a.author || null,
    tags: listOf(a.tags).map((name) => ({ slug: slugify(name), name })),
    contentMarkdown,
    contentPlaintext,
    wordCount,
    readingTime: Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE)),
    contentHash: createHash('sha256').update(text).digest('hex'),
  };
}

export async function readBlogContent(dir = BLOG_DIR): Promise<{ authors: BlogAuthorSource[]; posts: BlogPostSource[] }> {
  const authors = JSON.parse(await readFile(join(dir, 'authors.json'), 'utf8')) as BlogAuthorSource[];
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  const posts: BlogPostSource[] = [];
  for (const file of files) {
    const slug = file.replace(/\.md$/, '');
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new Error(`${file}: post file names must be kebab-case slugs`);
    const post = parseBlogPost(slug, await readFile(join(dir, file), 'utf8'));
    if (post.authorSlug && !authors.some((au) => au.slug === post.authorSlug)) throw new Error(`${file}: unknown author ${post.authorSlug}`);
    posts.push(post);
  }
  return { authors, posts };
}
