import { z } from 'zod';

/** GET /api/v1/knowledge/search and GraphQL `knowledgeSearch` (§4.6). Keys are the GraphQL argument names. */
export const KnowledgeSearchInput = z.object({
  q: z.string({ error: 'is required' }).trim().min(3, { error: 'must be 3 to 300 characters' }).max(300, { error: 'must be 3 to 300 characters' }),
  tags: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9-]{1,40}$/, { error: 'must be comma-separated tags such as budget,contracts' }),
    )
    .max(10, { error: 'must have at most 10 tags' })
    .optional(),
  limit: z.int({ error: 'must be an integer' }).min(1, { error: 'must be 1 to 10' }).max(10, { error: 'must be 1 to 10' }).default(5),
});

export type KnowledgeSearch = z.output<typeof KnowledgeSearchInput>;
