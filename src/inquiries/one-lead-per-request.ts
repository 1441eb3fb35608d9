import type { ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError, isApiError } from '../errors/api-error.js';
import { refusalError } from '../graphql/errors.js';
import type { RequestContext } from '../graphql/context.js';
import { checkLeadInput, checkLiteralLeadInputs, rootFieldsOf } from './lead-input.js';

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
    const names = rootFieldsOf(operation, (name) => context.getFragment(name))
      .map((field) => field.name.value)
      .filter((name) => LEAD_CREATING_FIELDS.has(name));
    if (names.length > 1) {
      const refusal = new ApiError('invalid_parameters', {
        message: `One inquiry per request: this operation selects ${names.length} lead-creating fields (${names.join(', ')}). Send each inquiry as its own request.`,
        problems: [{ param: 'mutation', problem: 'selects more than one lead-creating field' }],
      });
      context.reportError(refusalError(refusal, { nodes: [operation], requestLevel: true }));
    }
  },
});

/**
 * Yoga plugin: the one-lead rule joins validation (on /graphql and the REST documents alike), and an inquiry's raw
 * input is checked in §4.10's order before GraphQL coerces it (lead-input.ts): inputs written in the document at
 * validation, inputs in variables before execution. The validated input is handed to the resolver in the context.
 */
export function useOneLeadPerRequest(): Plugin<RequestContext> {
  const refuse = (error: unknown) => {
    if (!isApiError(error)) throw error;
    return refusalError(error, { requestLevel: true });
  };
  return {
    onValidate({ addValidationRule, params, setResult }) {
      addValidationRule(oneLeadPerOperation);
      try {
        checkLiteralLeadInputs(params.documentAST);
      } catch (error) {
        setResult([refuse(error)]);
      }
    },
    onExecute({ args, extendContext }) {
      let checkedInquiry: RequestContext['checkedInquiry'] | null;
      try {
        checkedInquiry = checkLeadInput(args.document, args.variableValues as Record<string, unknown> | undefined, args.operationName);
      } catch (error) {
        // Thrown, not set as the result: Yoga then formats it like every other error.
        throw refuse(error);
      }
      if (checkedInquiry) extendContext({ checkedInquiry });
    },
  };
}
