import { wholeNumberIn } from '../errors/validation.js';
import { z } from 'zod';

/** Blog list (§2.13, §4.14): page-style pagination, newest first, optional tag. Keys are the GraphQL argument names. */
export const BlogPostsInput = z.object({
  page: z.int({ error: 'must be an integer' }).min(1, { error: 'must be 1 or more' }).max(100_000, { error: 'must be at most 100000' }).default(1),
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
