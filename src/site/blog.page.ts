import type { BlogPostRow } from '../blog/blog.service.js';
import { escapeHtml, paragraphs, renderPage } from './site.layout.js';
import { absoluteImageUrl, shownImageUrl } from './site.media.js';

/** GET /blog/{slug} and /blog/authors/{slug}: the pages a post's and an author's `url` name (§2.13). */

export interface BlogPostPageData {
  post: BlogPostRow;
  /** Where the public pages live (PUBLIC_SITE_URL, else this service). */
  siteUrl: string;
  /** This service's origin, where it serves the demo photos. */
  baseUrl: string;
}

export function blogPostPage({ post, siteUrl, baseUrl }: BlogPostPageData): string {
  const canonical = `${siteUrl}/blog/${post.slug}`;
  const published = post.publishedAt.toISOString().slice(0, 10);
  const author = post.author;
  const image = post.featureImage ? absoluteImageUrl(post.featureImage, baseUrl) : null;
  const byline = [
    author ? `By <a href="/blog/authors/${encodeURIComponent(author.slug)}">${escapeHtml(author.name)}</a>` : null,
    escapeHtml(published),
    post.readingTime ? `${post.readingTime} min read` : null,
  ].filter(Boolean);
  return renderPage(
    {
      title: post.title,
      description: post.excerpt ?? post.title,
      canonical,
      image,
      ogType: 'article',
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: post.title,
        url: canonical,
        datePublished: post.publishedAt.toISOString(),
        description: post.excerpt ?? undefined,
        image: image ?? undefined,
        wordCount: post.wordCount,
        keywords: post.tags.length ? post.tags.map((t) => t.name) : undefined,
        author: author ? { '@type': 'Person', name: author.name, url: `${siteUrl}/blog/authors/${author.slug}` } : undefined,
      },
    },
    [
      `<h1>${escapeHtml(post.title)}</h1>`,
      `<p class="muted">${byline.join(' · ')}</p>`,
      post.featureImage ? `<div class="photos"><img src="${escapeHtml(shownImageUrl(post.featureImage))}" alt="" decoding="async"></div>` : '',
      paragraphs(post.contentPlaintext ?? post.excerpt ?? ''),
      post.tags.length ? `<ul class="pills">${post.tags.map((t) => `<li>${escapeHtml(t.name)}</li>`).join('')}</ul>` : '',
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

export interface AuthorPageData {
  author: { slug: string; name: string; bio: string | null };
  siteUrl: string;
}

export function blogAuthorPage({ author, siteUrl }: AuthorPageData): string {
  const canonical = `${siteUrl}/blog/authors/${author.slug}`;
  return renderPage(
    {
      title: `${author.name} · Wedding Discovery blog`,
      description: author.bio ?? `Posts by ${author.name}.`,
      canonical,
      ogType: 'profile',
      jsonLd: { '@context': 'https://schema.org', '@type': 'Person', name: author.name, url: canonical, description: author.bio ?? undefined },
    },
    [`<h1>${escapeHtml(author.name)}</h1>`, author.bio ? `<p>${escapeHtml(author.bio)}</p>` : ''].filter(Boolean).join('\n'),
  );
}
