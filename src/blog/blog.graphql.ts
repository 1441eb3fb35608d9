import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import type { RequestContext } from '../graphql/context.js';
import {
  getBlogPost,
  listBlogPosts,
  listBlogTags,
  visibleAuthorsBySlug,
  visiblePostsById,
  visibleTagsBySlug,
  type BlogDeps,
  type BlogPostRow,
  type BlogTagCount,
  type NumberedPage,
} from './blog.service.js';
import { asNode, slugKey, uuidKey } from '../graphql/node.js';
import { parsedBy } from '../graphql/input-schema.js';
import { BlogPostsInput } from './blog.inputs.js';

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
      resolve: (a, _args, ctx) => `${ctx.siteUrl}/blog/authors/${a.slug}`,
    }),
  }),
});

export const BlogPost = builder.objectRef<BlogPostRow>('BlogPost');
// Global ids for client caches; node(id:) shows only posts that are out, and authors and tags of such posts.
asNode(BlogPost, { key: 'id', parseKey: uuidKey, load: (ids, _query, ctx) => visiblePostsById(ids, blogDeps(ctx)) });
// A post is read with its tags and author (blog.queries.ts says why through the driver); a list page's bodies are
// read only when asked, all of the page's in one statement (ctx.loaders.postBody).
BlogPost.implement({
  description: 'A published blog post (§2.13 list item and detail).',
  fields: (t) => ({
    slug: t.exposeString('slug', graphqlOnly('URL-safe post id; what blogPost(slug:) takes.')),
    title: t.exposeString('title', graphqlOnly('Post title.')),
    excerpt: t.exposeString('excerpt', { nullable: true, ...graphqlOnly('Short summary; null when the post has none.') }),
    featureImage: t.expose('featureImage', { type: 'URL', nullable: true, description: 'Absolute image URL.' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', description: 'ISO 8601 date-time.' }),
    readingTime: t.exposeInt('readingTime', { nullable: true, description: 'Minutes, at 230 words a minute.' }),
    tags: t.expose('tags', { type: [BlogTag], description: 'Tags in order; the first is the primary tag.' }),
    primaryAuthor: t.field({
      type: BlogAuthor,
      nullable: true,
      ...graphqlOnly('The author; null when the post names none.'),
      resolve: (p) => p.author,
    }),
    url: t.field({ type: 'URL', description: 'Absolute URL of the post page.', resolve: (p, _args, ctx) => `${ctx.siteUrl}/blog/${p.slug}` }),
    wordCount: t.exposeInt('wordCount', graphqlOnly('Words in the post body.')),
    contentPlaintext: t.string({
      nullable: true,
      description: 'The post as plain text (Markdown removed).',
      resolve: (p, _args, ctx) => (p.contentPlaintext !== undefined ? p.contentPlaintext : ctx.loaders.postBody.load(p.id)),
    }),
  }),
});

asNode(BlogAuthor, { key: 'slug', parseKey: slugKey, planned: true, load: (slugs, query, ctx) => visibleAuthorsBySlug(slugs, query, blogDeps(ctx)) });
asNode(BlogTag, { key: 'slug', parseKey: slugKey, planned: true, load: (slugs, query, ctx) => visibleTagsBySlug(slugs, query, blogDeps(ctx)) });

const BlogPostPage = builder.objectRef<NumberedPage<BlogPostRow>>('BlogPostPage').implement({
  description: 'One page of posts, newest first (page style: ask for page + 1 while hasMore).',
  fields: (t) => ({
    nodes: t.expose('nodes', { type: [BlogPost], ...graphqlOnly('The posts of this page, newest first.') }),
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
    extensions: parsedBy(BlogPostsInput),
    args: {
      page: t.arg.int({ description: 'Page number, 1 or more.', defaultValue: 1 }),
      limit: t.arg.int({ description: 'Page size, 1 to 100.', defaultValue: 20 }),
      tag: t.arg.string({ description: 'Only posts with this tag slug.' }),
    },
    resolve: (_root, args, ctx) => listBlogPosts(args, blogDeps(ctx)),
  }),
  blogPost: t.field({
    type: BlogPost,
    nullable: true,
    // REST answers a missing post with 404, so its 200 `data` is never null (OpenAPI reads this).
    extensions: { semanticNonNull: true },
    description: 'One published post by slug.',
    args: { slug: t.arg.string({ required: true, ...graphqlOnly('The post slug (BlogPost.slug).') }) },
    resolve: (_root, args, ctx) => getBlogPost(args.slug, blogDeps(ctx)),
  }),
  blogTags: t.field({
    type: [BlogTagWithCount],
    description: 'Tags of published posts with their post counts, most used first.',
    resolve: (_root, _args, ctx) => listBlogTags(blogDeps(ctx)),
  }),
}));
