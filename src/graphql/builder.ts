import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import ComplexityPlugin from '@pothos/plugin-complexity';
import { fieldComplexity } from './complexity.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { RequestContext } from '../http/context.js';

/** The one Pothos builder; each domain module adds its types and root fields to it (src/<module>/<module>.graphql.ts). */
interface BuilderOptions {
  PrismaTypes: PrismaTypes;
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
  };
}
/** The schema types of our builder, for helpers that take its refs. */
export type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderOptions>;

export const builder = new SchemaBuilder<BuilderOptions>({
  plugins: [PrismaPlugin, ComplexityPlugin],
  // Cost per field for the request bounds (complexity.ts); the bounds are enforced by its Yoga plugin, before execution.
  complexity: { fieldComplexity },
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({ description: 'Wedding venue and vendor discovery. Every operation needs an API key (Authorization: Bearer <key>).' });

builder.scalarType('JSON', {
  description: 'A JSON value (object maps such as category_stats).',
  serialize: (value) => value,
  parseValue: (value) => value,
});
