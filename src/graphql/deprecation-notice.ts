import { NoDeprecatedCustomRule, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from './context.js';

/**
 * Marks the request context when the operation selects a deprecated field (graphql-js's own rule finds them). The
 * rule reads only the document (fields, arguments and enum literals in it), so its answer is kept per parsed document:
 * the document cache hands the same DocumentNode back for the same text, and walking it again cost ~1 % of a search.
 */
export function useDeprecationNotice(): Plugin<RequestContext> {
  const answers = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, boolean>>();
  return {
    onExecute({ args }) {
      const scope = args.contextValue.scope;
      if (!scope) return;
      let bySchema = answers.get(args.schema);
      if (!bySchema) answers.set(args.schema, (bySchema = new WeakMap()));
      let deprecated = bySchema.get(args.document);
      if (deprecated === undefined) {
        deprecated = validate(args.schema, args.document, [NoDeprecatedCustomRule]).length > 0;
        bySchema.set(args.document, deprecated);
      }
      if (deprecated) scope.usedDeprecatedFields = true;
    },
  };
}
