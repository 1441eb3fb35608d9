import { parseInput, wholeNumberIn, textOfLength } from '../errors/validation.js';
import { z } from 'zod';

/** GET /api/v1/knowledge/search and GraphQL `knowledgeSearch` (§4.6). Keys are the GraphQL argument names. */
export const KnowledgeSearchInput = z.object({
  q: textOfLength(3, 300),
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
  limit: wholeNumberIn(1, 10).default(5),
});

export type KnowledgeSearch = z.output<typeof KnowledgeSearchInput>;

/** §4.6 search arguments parsed, or a 400 naming each failing one. */
export const parseKnowledgeSearch = (input: unknown): KnowledgeSearch => parseInput(KnowledgeSearchInput, input);
