import { parseInput, wholeNumberIn } from '../errors/validation.js';
import { z } from 'zod';

/** Blog list (§2.13, §4.14): page-style pagination, newest first, optional tag. Keys are the GraphQL argument names. */
export const BlogPostsInput = z.object({
  // Any page past the last is an empty page; 100000 keeps the SQL offset (page × limit) within bounds.
  page: wholeNumberIn(1, 100_000).default(1),
  limit: wholeNumberIn(1, 100).default(20),
  tag: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: 'must be a tag slug such as budget (see /blog/tags)' })
    .max(100)
    .optional(),
});

export type BlogPosts = z.output<typeof BlogPostsInput>;

/** Blog list arguments parsed, or a 400 naming each failing one. */
export const parseBlogPosts = (input: unknown): BlogPosts => parseInput(BlogPostsInput, input);
