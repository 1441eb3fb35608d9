import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { readOwnPropertiesInline } from './own-property.js';
import { checkPlannedReads } from './planned-reads.js';
import { noteDetailFields } from '../limits/venue-details.js';
import './scalars.js';
// Each module registers its types and root fields on the builder when imported.
import '../venues/venues.graphql.js';
import '../vendors/vendors.graphql.js';
import '../pricing/pricing.graphql.js';
import '../limits/limits.graphql.js';
import '../knowledge/knowledge.graphql.js';
import '../inspiration/inspiration.graphql.js';
import '../blog/blog.graphql.js';
import '../inquiries/inquiries.graphql.js';

let schema: GraphQLSchema | undefined;

/** The one executable schema both surfaces run. Built on first use, then shared. */
export function getSchema(): GraphQLSchema {
  if (!schema) {
    const built = builder.toSchema({ sortSchema: true });
    checkPlannedReads(built);
    readOwnPropertiesInline(built);
    noteDetailFields(built);
    schema = built;
  }
  return schema;
}

/** schema.graphql at the repo root is exactly this text; a test fails when it is stale. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
}
