import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import type { RequestContext } from '../http/context.js';
import type { BlogPost as PostRow } from '../generated/prisma/client.js';
import {
  getBlogPost,
  listBlogPosts,
  listBlogTags,
  visibleAuthorsBySlug,
  visiblePostsById,
  visibleTagsBySlug,
  type BlogDeps,
  type BlogTagCount,
  type NumberedPage,
} from './blog.service.js';
import { asNode, slugKey, uuidKey } from '../graphql/node.js';

const blogDeps = (ctx: RequestContext): BlogDeps => ({ prisma: ctx.prisma, readRows: ctx.readRows, now: ctx.now });

const BlogTag = builder.prismaObject('BlogTag', {
  description: 'A blog tag.',
  fields: (t) => ({
    slug: t.exposeString('slug', graphqlOnly('URL-safe tag id; the `tag` filter of blogPosts.')),
    name: t.exposeString('name', graphqlOnly('Display name.')),
  }),
});

const BlogAuthor = builder.prismaObject('BlogAuthor', {
  description: 'A blog author.',
  fields: (t) => ({
    name: t.exposeString('name', graphqlOnly('Display name.')),
    slug: t.exposeString('slug', graphqlOnly('URL-safe author id.')),
    url: t.field({
      type: 'URL',
      description: "Absolute URL of the author's page.",
      resolve: (a, _args, ctx) => `${ctx.baseUrl}/blog/authors/${a.slug}`,
    }),
  }),
});

export const BlogPost = builder.prismaObject('BlogPost', {
  description: 'A published blog post (§2.13 list item and detail).',
  // Select mode: list pages never load the post bodies they do not return. The list item's short columns are part of
  // every row and read directly (LIST_COLUMNS in venues.graphql.ts says why); tags, author and body keep their select.
  select: { id: true, slug: true, title: true, excerpt: true, featureImage: true, publishedAt: true, readingTime: true, wordCount: true },
  fields: (t) => ({
    slug: t.string({ ...graphqlOnly('URL-safe post id; what blogPost(slug:) takes.'), resolve: (p) => p.slug }),
    title: t.string({ ...graphqlOnly('Post title.'), resolve: (p) => p.title }),
    excerpt: t.string({ nullable: true, ...graphqlOnly('Short summary; null when the post has none.'), resolve: (p) => p.excerpt }),
    featureImage: t.field({ type: 'URL', nullable: true, description: 'Absolute image URL.', resolve: (p) => p.featureImage }),
    publishedAt: t.field({ type: 'DateTime', description: 'ISO 8601 date-time.', resolve: (p) => p.publishedAt ?? new Date(0) }),
    readingTime: t.int({ nullable: true, description: 'Minutes, at 230 words a minute.', resolve: (p) => p.readingTime }),
    tags: t.field({
      type: [BlogTag],
      description: 'Tags in order; the first is the primary tag.',
      select: { tags: { select: { tag: true }, orderBy: { position: 'asc' } } },
      resolve: (p) => p.tags.map((link) => link.tag),
    }),
    primaryAuthor: t.relation('author', { nullable: true, ...graphqlOnly('The author; null when the post names none.') }),
    url: t.field({ type: 'URL', description: 'Absolute URL of the post page.', resolve: (p, _args, ctx) => `${ctx.baseUrl}/blog/${p.slug}` }),
    wordCount: t.int({ ...graphqlOnly('Words in the post body.'), resolve: (p) => p.wordCount }),
    contentPlaintext: t.exposeString('contentPlaintext', { nullable: true, description: 'The post as plain text (Markdown removed).' }),
  }),
});

// Global ids for client caches; node(id:) shows only posts that are out, and authors and tags of such posts.
asNode(BlogPost, { key: 'id', parseKey: uuidKey, planned: true, load: (ids, query, ctx) => visiblePostsById(ids, query, blogDeps(ctx)) });
asNode(BlogAuthor, { key: 'slug', parseKey: slugKey, planned: true, load: (slugs, query, ctx) => visibleAuthorsBySlug(slugs, query, blogDeps(ctx)) });
asNode(BlogTag, { key: 'slug', parseKey: slugKey, planned: true, load: (slugs, query, ctx) => visibleTagsBySlug(slugs, query, blogDeps(ctx)) });

const BlogPostPage = builder.objectRef<NumberedPage<PostRow>>('BlogPostPage').implement({
  description: 'One page of posts, newest first (page style: ask for page + 1 while hasMore).',
  fields: (t) => ({
    nodes: t.field({ type: [BlogPost], ...graphqlOnly('The posts of this page, newest first.'), resolve: (p) => p.nodes }),
    page: t.exposeInt('page', { description: 'Page number, from 1.' }),
    limit: t.exposeInt('limit', { description: 'Page size asked for.' }),
    hasMore: t.exposeBoolean('hasMore', { description: 'Whether a next page exists.' }),
    totalCount: t.int({ description: 'Posts matching, over all pages.', resolve: (p) => p.totalCount() }),
  }),
});

const BlogTagWithCount = builder.objectRef<BlogTagCount>('BlogTagWithCount').implement({
  description: 'A tag with the number of published posts carrying it.',
  fields: (t) => ({
    slug: t.exposeString('slug', graphqlOnly('URL-safe tag id; the `tag` filter of blogPosts.')),
    name: t.exposeString('name', graphqlOnly('Display name.')),
    postCount: t.exposeInt('postCount', graphqlOnly('Published posts carrying the tag.')),
  }),
});

builder.queryFields((t) => ({
  blogPosts: t.field({
    type: BlogPostPage,
    description: 'Published posts, newest first, page by page.',
    args: {
      page: t.arg.int({ description: 'Page number, 1 or more.', defaultValue: 1 }),
      limit: t.arg.int({ description: 'Page size, 1 to 100.', defaultValue: 20 }),
      tag: t.arg.string({ description: 'Only posts with this tag slug.' }),
    },
    resolve: (_root, args, ctx, info) =>
      listBlogPosts<PostRow>(args, queryFromInfo({ context: ctx, info, typeName: 'BlogPost', path: ['nodes'] }), blogDeps(ctx)),
  }),
  blogPost: t.prismaField({
    type: 'BlogPost',
    nullable: true,
    // REST answers a missing post with 404, so its 200 `data` is never null (OpenAPI reads this).
    extensions: { semanticNonNull: true },
    description: 'One published post by slug.',
    args: { slug: t.arg.string({ required: true, ...graphqlOnly('The post slug (BlogPost.slug).') }) },
    resolve: (query, _root, args, ctx) => getBlogPost<PostRow>(args.slug, query, blogDeps(ctx)),
  }),
  blogTags: t.field({
    type: [BlogTagWithCount],
    description: 'Tags of published posts with their post counts, most used first.',
    resolve: (_root, _args, ctx) => listBlogTags(blogDeps(ctx)),
  }),
}));
