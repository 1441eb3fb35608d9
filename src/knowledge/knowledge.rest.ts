import type { RestRoute } from '../rest/route.js';

export const knowledgeRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/knowledge/search',
    operationId: 'searchKnowledge',
    summary: 'Search planning notes and policies',
    description:
      'Authored couple-facing planning notes and policies, searched by meaning (sentence embeddings) and by words (full-text), ' +
      'fused by reciprocal rank. Sections are returned verbatim in rank order. Not a venue price and not availability. ' +
      'When the semantic half is unavailable the answer comes from words alone and carries degraded: text_only.',
    tag: 'Knowledge',
    document: /* GraphQL */ `
      query searchKnowledge($q: String!, $tags: [String!], $limit: Int) {
        knowledgeSearch(q: $q, tags: $tags, limit: $limit) {
          data { title heading body kind slug score }
          query asOf note degraded
        }
      }`,
    envelope: { kind: 'spread', optional: ['degraded'] },
    errors: ['invalid_parameters', 'knowledge_unavailable'],
    paramDocs: {
      q: { description: 'The question, 3 to 300 characters.', example: 'how much deposit do venues ask for' },
      tags: { description: 'Comma-separated boost tags: a tag ranks matching sections higher and never filters.', example: 'budget,contracts' },
      limit: { description: 'Sections to return.', default: 5 },
    },
  },
];
