import { NoDeprecatedCustomRule, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from './context.js';

const answers = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, boolean>>();

/**
 * Whether the document selects a deprecated field (graphql-js's own rule finds them). The rule reads only the document
 * (fields, arguments and enum literals in it), so its answer is kept per parsed document: the document cache hands
 * the same DocumentNode back for the same text, and walking it again cost ~1 % of a search.
 */
export function selectsDeprecatedField(schema: GraphQLSchema, document: DocumentNode): boolean {
  let bySchema = answers.get(schema);
  if (!bySchema) answers.set(schema, (bySchema = new WeakMap()));
  let deprecated = bySchema.get(document);
  if (deprecated === undefined) {
    deprecated = validate(schema, document, [NoDeprecatedCustomRule]).length > 0;
    bySchema.set(document, deprecated);
  }
  return deprecated;
}

/** Marks the request's scope when the operation selects a deprecated field: its answer gets the §9 headers. */
export function useDeprecationNotice(): Plugin<RequestContext> {
  return {
    onExecute({ args }) {
      const scope = args.contextValue.scope;
      if (scope && selectsDeprecatedField(args.schema, args.document)) scope.usedDeprecatedFields = true;
    },
  };
}
