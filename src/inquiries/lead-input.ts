import {
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionNode,
  type ValueNode,
} from 'graphql';
import { parseInquiry, type InquiryInput } from './inquiries.inputs.js';
import { fragmentsOf } from '../graphql/fragments.js';

/**
 * The root fields an operation selects, through inline fragments and named fragment spreads (each fragment visited
 * once), in document order.
 */
export function rootFieldsOf(
  operation: OperationDefinitionNode,
  fragment: (name: string) => { selectionSet: { selections: readonly SelectionNode[] } } | null | undefined,
): FieldNode[] {
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const collect = (selections: readonly SelectionNode[]) => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet.selections);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const definition = fragment(selection.name.value);
        if (definition) collect(definition.selectionSet.selections);
      }
    }
  };
  collect(operation.selectionSet.selections);
  return fields;
}

const KIND_OF_FIELD: Record<string, 'venue' | 'vendor'> = { createVenueInquiry: 'venue', createVendorInquiry: 'vendor' };

const mutationsOf = (document: DocumentNode) =>
  document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation');

/** The lead-creating fields of one operation, with their `input` argument (absent: GraphQL's validation names it). */
function leadFieldsOf(document: DocumentNode, operation: OperationDefinitionNode): { field: FieldNode; input: ValueNode }[] {
  const fragments = fragmentsOf(document);
  return rootFieldsOf(operation, (name) => fragments.get(name)).flatMap((field) => {
    const input = field.name.value in KIND_OF_FIELD ? field.arguments?.find((a) => a.name.value === 'input')?.value : undefined;
    return input ? [{ field, input }] : [];
  });
}

/** A value written in the document that refers to no variable: what it holds is known before any request's variables. */
function isLiteral(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return false;
  if (value.kind === Kind.LIST) return value.values.every(isLiteral);
  if (value.kind === Kind.OBJECT) return value.fields.every((f) => isLiteral(f.value));
  return true;
}

/**
 * §4.10's rule order on an inquiry's raw input, before GraphQL coerces it: a missing or non-boolean smsConsent is
 * sms_consent_required before anything else, then every failing field in one invalid_parameters error — where
 * GraphQL's own coercion would answer a type error for the first wrong field only. So the input types can say the
 * truth (Int, Boolean!, required fields) and both surfaces still answer with the same codes.
 *
 * Inputs written in the document are checked at validation (checkLiteralLeadInputs: their answer depends on the
 * document alone, which the document cache's validation assumes); inputs that use variables just before execution
 * (checkLeadInput), when GraphQL has not coerced them yet. REST runs its body through the same parser first.
 */
export function checkLiteralLeadInputs(document: DocumentNode): void {
  for (const operation of mutationsOf(document)) {
    for (const { field, input } of leadFieldsOf(document, operation)) {
      if (isLiteral(input)) parseInquiry(KIND_OF_FIELD[field.name.value], valueFromASTUntyped(input));
    }
  }
}

/** The executed operation's inquiry input, checked as above; null when the operation creates no lead. */
export function checkLeadInput(
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): InquiryInput | null {
  const operations = mutationsOf(document);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  const lead = operation ? leadFieldsOf(document, operation)[0] : undefined;
  if (!lead) return null;
  const raw = lead.input.kind === Kind.VARIABLE ? variables?.[lead.input.name.value] : valueFromASTUntyped(lead.input, variables ?? undefined);
  return parseInquiry(KIND_OF_FIELD[lead.field.name.value], raw);
}
