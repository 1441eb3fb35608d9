import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import type { RequestContext } from '../graphql/context.js';
import { knowledgeEmbedderFor } from './knowledge.runtime.js';
import { searchKnowledge, type KnowledgeDeps, type KnowledgeHit, type KnowledgeSearchResult } from './knowledge.service.js';
import { closedSet, closedSetOf } from '../graphql/closed-set.js';
import { parsedBy } from '../graphql/input-schema.js';
import { KnowledgeSearchInput } from './knowledge.inputs.js';

const knowledgeDeps = (ctx: RequestContext): KnowledgeDeps => ({
  prisma: ctx.prisma,
  embedder: knowledgeEmbedderFor(ctx.prisma),
  onDegraded: (error) => ctx.log.warn({ requestId: ctx.requestId, err: error }, 'knowledge search: semantic half unavailable, answering text_only'),
});

const Kind = closedSet('KnowledgeChunkKind', ['knowledge'], 'What a knowledge search hit is (§2.7).');
const Degraded = closedSetOf<NonNullable<KnowledgeSearchResult['degraded']>>(
  'KnowledgeDegradation',
  { text_only: true },
  'How a knowledge search answered with less than both halves (§4.6).',
);

const KnowledgeChunk = builder.objectRef<KnowledgeHit>('KnowledgeChunk').implement({
  description: 'One section of an authored planning note or policy (§2.7), verbatim.',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Note title.' }),
    heading: t.exposeString('heading', { description: "Section heading; '' for the note's opening text." }),
    body: t.exposeString('body', { description: 'Authored text (Markdown), verbatim.' }),
    kind: t.expose('kind', { type: Kind.ref, description: Kind.describe() }),
    slug: t.exposeString('slug', { description: 'Stable id of path form: the note, then the section.' }),
    score: t.exposeFloat('score', { description: 'Reciprocal-rank-fusion score; higher is closer; not comparable across queries.' }),
  }),
});

const KnowledgeSearchResultRef = builder.objectRef<KnowledgeSearchResult>('KnowledgeSearchResult').implement({
  description: 'Sections in rank order, with the facts that qualify them (§4.6).',
  fields: (t) => ({
    data: t.expose('data', { type: [KnowledgeChunk], description: 'Sections in rank order.' }),
    query: t.exposeString('query', { description: 'The question as searched (trimmed).' }),
    asOf: t.exposeString('asOf', { description: 'Date (YYYY-MM-DD) of the newest note revision.' }),
    note: t.exposeString('note', graphqlOnly('How to read the results, in a sentence.')),
    degraded: t.expose('degraded', {
      type: Degraded.ref,
      nullable: true,
      description: 'text_only when the semantic half was unavailable and only word matching ran; absent (REST) or null otherwise.',
    }),
  }),
});

builder.queryFields((t) => ({
  knowledgeSearch: t.field({
    type: KnowledgeSearchResultRef,
    description: 'Search authored couple-facing planning notes and policies by meaning and by words, fused by reciprocal rank (§4.6).',
    extensions: parsedBy(KnowledgeSearchInput),
    args: {
      q: t.arg.string({ required: true, description: 'The question, 3 to 300 characters.' }),
      tags: t.arg.stringList({ description: 'Boost tags: sections carrying one rank higher; never a filter.' }),
      limit: t.arg.int({ description: 'Sections to return, 1 to 10.', defaultValue: 5 }),
    },
    resolve: async (_root, args, ctx) => {
      const result = await searchKnowledge(args, knowledgeDeps(ctx));
      // A words-only answer stands in while the semantic half is away; the next request should get the whole one.
      if (result.degraded && ctx.answerNotes) ctx.answerNotes.doNotReuse = `knowledge ${result.degraded}`;
      return result;
    },
  }),
}));
