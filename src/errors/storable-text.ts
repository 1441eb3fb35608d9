import { Kind, type DocumentNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import { ApiError } from './api-error.js';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL can store: no NUL character (text columns cannot hold U+0000, error 22021) and no unpaired UTF-16
 * surrogate (it has no UTF-8 encoding). Anything else a client sends is text we can compare and store.
 */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL (U+0000) characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it has an unpaired surrogate)';
  return null;
}

/** The first string inside `value` PostgreSQL cannot store: its parameter (the innermost object key) and why. */
export function findUnstorableText(value: unknown, param: string): { param: string; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { param, problem } : null;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnstorableText(item, param);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findUnstorableText(item, key);
      if (found) return found;
    }
  }
  return null;
}

/** Throws invalid_parameters naming the field when any string in `value` cannot be stored. */
export function assertStorableText(value: unknown, param: string): void {
  const found = findUnstorableText(value, param);
  if (found) throw new ApiError('invalid_parameters', { problems: [found] });
}

/** Objects that carry an inquiry: their service checks them after sms_consent (§4.10 rule 1 comes first). */
const SELF_CHECKED_ARGUMENTS = new Set(['input']);

/**
 * Every argument of the operation that will run, literal or variable, checked before execution: one rule for every
 * field of both surfaces (REST runs the same documents), so no text that PostgreSQL would refuse reaches a query.
 * Variables are named as the client sent them; a literal argument by its argument name.
 */
export function assertStorableArguments(document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null) {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation) return;
  const selfChecked = new Set<string>();
  const fragmentsSeen = new Set<string>();
  const literal = (node: ValueNode, param: string): void => {
    if (node.kind === Kind.STRING) {
      const problem = textProblem(node.value);
      if (problem) throw new ApiError('invalid_parameters', { problems: [{ param, problem }] });
    } else if (node.kind === Kind.LIST) {
      for (const item of node.values) literal(item, param);
    } else if (node.kind === Kind.OBJECT) {
      for (const field of node.fields) literal(field.value, field.name.value);
    }
  };
  const visit = (selections: OperationDefinitionNode['selectionSet']['selections']): void => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) {
          if (SELF_CHECKED_ARGUMENTS.has(argument.name.value)) {
            if (argument.value.kind === Kind.VARIABLE) selfChecked.add(argument.value.name.value);
            continue;
          }
          if (argument.value.kind !== Kind.VARIABLE) literal(argument.value, argument.name.value);
        }
        if (selection.selectionSet) visit(selection.selectionSet.selections);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet.selections);
      } else if (!fragmentsSeen.has(selection.name.value)) {
        fragmentsSeen.add(selection.name.value);
        const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
        if (fragment?.kind === Kind.FRAGMENT_DEFINITION) visit(fragment.selectionSet.selections);
      }
    }
  };
  visit(operation.selectionSet.selections);
  for (const [name, value] of Object.entries(variables ?? {})) {
    if (!selfChecked.has(name)) assertStorableText(value, name);
  }
}
