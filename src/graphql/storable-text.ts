import type { Plugin } from 'graphql-yoga';
import { isApiError } from '../errors/api-error.js';
import { assertStorableArguments } from '../errors/storable-text.js';
import { refusalError } from './errors.js';

/**
 * Refuses, before execution, an operation whose arguments carry text PostgreSQL cannot store (NUL, unpaired
 * surrogates): 400 invalid_parameters naming the argument, the same rule the REST adapter applies to its variables.
 */
export function useStorableText(): Plugin {
  return {
    onExecute({ args }) {
      try {
        assertStorableArguments(args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
      } catch (error) {
        if (!isApiError(error)) throw error;
        // Thrown, not set as the result: Yoga then formats it like every other error.
        throw refusalError(error, { requestLevel: true });
      }
    },
  };
}
