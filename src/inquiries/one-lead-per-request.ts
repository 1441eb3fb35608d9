import { Kind, type SelectionNode, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import { refusalError } from '../graphql/errors.js';

/** The mutation fields that create a lead (§4.10, §4.11). */
export const LEAD_CREATING_FIELDS = new Set(['createVenueInquiry', 'createVendorInquiry']);

/**
 * One lead per request: an operation may select at most one lead-creating field, aliases included. Checked at
 * validation, before any resolver runs, so an operation is either refused with nothing written or runs its one
 * inquiry and reports it. (With several, a later one refused by the inquiry limit or a validation rule would share a
 * response with earlier ones that already created leads; REST, too, creates one lead per request.)
 */
const oneLeadPerOperation: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    if (operation.operation !== 'mutation') return;
    const names: string[] = [];
    // Root selections, through inline fragments and named fragment spreads (each fragment visited once).
    const seen = new Set<string>();
    const collect = (selections: readonly SelectionNode[]) => {
      for (const selection of selections) {
        if (selection.kind === Kind.FIELD) {
          if (LEAD_CREATING_FIELDS.has(selection.name.value)) names.push(selection.name.value);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          collect(selection.selectionSet.selections);
        } else if (!seen.has(selection.name.value)) {
          seen.add(selection.name.value);
          const fragment = context.getFragment(selection.name.value);
          if (fragment) collect(fragment.selectionSet.selections);
        }
      }
    };
    collect(operation.selectionSet.selections);
    if (names.length > 1) {
      const refusal = new ApiError('invalid_parameters', {
        message: `One inquiry per request: this operation selects ${names.length} lead-creating fields (${names.join(', ')}). Send each inquiry as its own request.`,
        problems: [{ param: 'mutation', problem: 'selects more than one lead-creating field' }],
      });
      context.reportError(refusalError(refusal, { nodes: [operation], requestLevel: true }));
    }
  },
});

/** Yoga plugin adding the rule to validation (on /graphql and the REST documents alike). */
export function useOneLeadPerRequest(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(oneLeadPerOperation);
    },
  };
}
