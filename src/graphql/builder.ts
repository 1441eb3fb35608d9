import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ComplexityPlugin from '@pothos/plugin-complexity';
import RelayPlugin from '@pothos/plugin-relay';
import { fieldComplexity } from './complexity.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { prismaDatamodel } from './model-columns.js';
import type { RequestContext } from './context.js';
import { graphqlOnly } from './graphql-only.js';

/** The one Pothos builder; each domain module adds its types and root fields to it (src/<module>/<module>.graphql.ts). */
interface BuilderOptions {
  PrismaTypes: PrismaTypes;
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    // Meaningful strings (scalars.ts): resolvers may return a Date where the scalar says how it is written.
    Date: { Input: string; Output: string | Date };
    DateTime: { Input: string; Output: string | Date };
    URL: { Input: string; Output: string };
    UUID: { Input: string; Output: string };
  };
}
/** The schema types of our builder, for helpers that take its refs. */
export type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderOptions>;

export const builder = new SchemaBuilder<BuilderOptions>({
  plugins: [PrismaPlugin, RelayPlugin, ComplexityPlugin],
  // Cost per field for the request bounds (complexity.ts); the bounds are enforced by its Yoga plugin, before execution.
  complexity: { fieldComplexity },
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: prismaDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    // node(id:) and nodes(ids:) are ours (node.ts): a malformed, unknown or hidden id is null there, never an error.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    nodeTypeOptions: { description: 'An entity with a global id: refetch it with node(id:), many with nodes(ids:).' },
    idFieldOptions: { description: 'Opaque global id, the same wherever the entity appears (a client cache key).' },
    // Connections keep the signed, filter-bound cursors of src/pagination/cursor.ts (connection.ts explains).
    pageInfoTypeOptions: {
      description: 'Relay page info. Pages are read forward: pass endCursor as `after` (REST: next_cursor as `cursor`).',
    },
    hasPreviousPageFieldOptions: {
      description:
        'True when rows precede this page: it was read with `after` (or, for inspiration, a non-zero offset). Pages are read forward only (no last/before), so the first page says false.',
    },
    endCursorFieldOptions: { description: 'Cursor of the next page; null on the last page.' },
    // REST's offset and page pagination take has_more from here; its OpenAPI text stays as it was (graphql-only.ts).
    hasNextPageFieldOptions: graphqlOnly('True when another page follows: read it with `after: endCursor`.'),
    startCursorFieldOptions: { description: 'Cursor of the first row of this page; null when the page is empty.' },
    edgesFieldOptions: { description: 'The rows of this page with their cursors (Relay edges).' },
    pageInfoFieldOptions: { description: 'Where this page sits and how to read the next one.' },
    cursorFieldOptions: { description: 'Opaque cursor of this row: pass it as `after` to read the rows that follow.' },
    nodeFieldOptions: { description: 'The row.' },
    // `nodes` (the rows without cursors) is REST's `data`, which the OpenAPI document leaves without text (graphql-only.ts).
    nodesOnConnection: graphqlOnly('The rows of this page, in order (edges without cursors).'),
  },
});

builder.queryType({ description: 'Wedding venue and vendor discovery. Every operation needs an API key (Authorization: Bearer <key>).' });

builder.scalarType('JSON', {
  description: 'A JSON value (object maps such as category_stats).',
  serialize: (value) => value,
  parseValue: (value) => value,
});
