import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isApiError } from '../errors/api-error.js';
import { assertStorableArguments } from '../errors/storable-text.js';
import { errorExtensions } from '../errors/translate.js';
import { requestScope } from '../http/context.js';

/**
 * Refuses, before execution, an operation whose arguments carry text PostgreSQL cannot store (NUL, unpaired
 * surrogates): 400 invalid_parameters naming the argument, the same rule the REST adapter applies to its variables.
 */
export function useStorableText(options: { baseUrl: string }): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      try {
        assertStorableArguments(args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
      } catch (error) {
        if (!isApiError(error)) throw error;
        const requestId = requestScope.getStore()?.requestId ?? 'unknown';
        setResultAndStopExecution({
          errors: [new GraphQLError(error.message, { extensions: { ...errorExtensions(error, requestId, options.baseUrl), http: { status: 400 } } })],
        });
      }
    },
  };
}
