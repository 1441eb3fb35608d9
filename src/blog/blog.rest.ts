import type { RestRoute } from '../rest/route.js';

const LIST_ITEM = /* GraphQL */ `
  fragment BlogPostListItem on BlogPost {
    slug title excerpt featureImage publishedAt readingTime
    tags { slug name }
    primaryAuthor { name slug url }
    url
  }`;

export const blogRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/blog/posts',
    operationId: 'listBlogPosts',
    summary: 'Blog posts',
    description: 'Published posts, newest first, page by page (drafts never show). With tag, only posts carrying that tag slug.',
    tag: 'Blog',
    document: /* GraphQL */ `
      query listBlogPosts($page: Int, $limit: Int, $tag: String) {
        blogPosts(page: $page, limit: $limit, tag: $tag) {
          page limit hasMore
          nodes { ...BlogPostListItem }
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'pageNumberPage' },
    errors: ['invalid_parameters'],
    paramDocs: {
      page: { description: 'Page number.', default: 1 },
      limit: { description: 'Page size.', default: 20 },
      tag: { description: 'Tag slug from /blog/tags.', example: 'budget' },
    },
  },
  {
    method: 'GET',
    path: '/blog/posts/{slug}',
    operationId: 'getBlogPost',
    summary: 'Blog post detail',
    description: 'One published post with its word count and plain-text content.',
    tag: 'Blog',
    document: /* GraphQL */ `
      query getBlogPost($slug: String!) {
        blogPost(slug: $slug) {
          ...BlogPostListItem
          wordCount contentPlaintext
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'object' },
    errors: ['blog_post_not_found'],
    paramDocs: { slug: { description: 'Post slug from the list.', example: 'how-to-set-a-wedding-budget' } },
  },
  {
    method: 'GET',
    path: '/blog/tags',
    operationId: 'listBlogTags',
    summary: 'Blog tags',
    description: 'Tags of published posts with their post counts, most used first.',
    tag: 'Blog',
    document: /* GraphQL */ `
      query listBlogTags {
        blogTags { slug name postCount }
      }`,
    envelope: { kind: 'object' },
    errors: [],
  },
];
