import { Kind, type DocumentNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import { ApiError, type FieldProblem } from './api-error.js';

/**
 * The JSON Schema `pattern` of text the rule below lets through, for the OpenAPI document (a string input without a
 * pattern, enum or format of its own gets it), and the character class patterns that say more are made of. Unpaired
 * surrogates need no pattern: they are not Unicode text, so no schema-valid string has one.
 */
export const STORABLE_CHARACTER = '[^\\u0000]';
export const STORABLE_TEXT_PATTERN = `^${STORABLE_CHARACTER}*$`;

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
    // for…in, not Object.entries: no array of pairs per object on every input of every request.
    for (const key in value) {
      const found = findUnstorableText((value as Record<string, unknown>)[key], key);
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

/** What a document's own text settles for one of its operations: its first unstorable literal, and its self-checked variables. */
interface LiteralCheck {
  problem: FieldProblem | null;
  selfChecked: Set<string>;
}

/**
 * Per parsed document (Yoga's parser cache and the REST routes hand the same object back for the same text), per
 * operation: walking a venue detail's 60 selections on every request was 1.3 % of its CPU.
 */
const literalChecks = new WeakMap<DocumentNode, Map<string, LiteralCheck>>();

function literalCheckOf(document: DocumentNode, operationName: string | null | undefined): LiteralCheck | null {
  let byOperation = literalChecks.get(document);
  if (!byOperation) literalChecks.set(document, (byOperation = new Map()));
  const key = operationName ?? '';
  let check = byOperation.get(key);
  if (check === undefined) {
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
    );
    if (!operation) return null;
    check = walkLiterals(document, operation);
    byOperation.set(key, check);
  }
  return check;
}

function walkLiterals(document: DocumentNode, operation: OperationDefinitionNode): LiteralCheck {
  const selfChecked = new Set<string>();
  const fragmentsSeen = new Set<string>();
  const literal = (node: ValueNode, param: string): FieldProblem | null => {
    if (node.kind === Kind.STRING) {
      const problem = textProblem(node.value);
      return problem ? { param, problem } : null;
    }
    const items =
      node.kind === Kind.LIST
        ? node.values.map((value) => [value, param] as const)
        : node.kind === Kind.OBJECT
          ? node.fields.map((f) => [f.value, f.name.value] as const)
          : [];
    for (const [value, name] of items) {
      const found = literal(value, name);
      if (found) return found;
    }
    return null;
  };
  const visit = (selections: OperationDefinitionNode['selectionSet']['selections']): FieldProblem | null => {
    for (const selection of selections) {
      let found: FieldProblem | null = null;
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) {
          if (SELF_CHECKED_ARGUMENTS.has(argument.name.value)) {
            if (argument.value.kind === Kind.VARIABLE) selfChecked.add(argument.value.name.value);
            continue;
          }
          if (argument.value.kind !== Kind.VARIABLE) found ??= literal(argument.value, argument.name.value);
        }
        if (selection.selectionSet) found ??= visit(selection.selectionSet.selections);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        found = visit(selection.selectionSet.selections);
      } else if (!fragmentsSeen.has(selection.name.value)) {
        fragmentsSeen.add(selection.name.value);
        const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
        if (fragment?.kind === Kind.FRAGMENT_DEFINITION) found = visit(fragment.selectionSet.selections);
      }
      if (found) return found;
    }
    return null;
  };
  return { problem: visit(operation.selectionSet.selections), selfChecked };
}

/**
 * Every argument of the operation that will run, literal or variable, checked before execution: one rule for every
 * field of both surfaces (REST runs the same documents), so no text that PostgreSQL would refuse reaches a query.
 * Variables are named as the client sent them; a literal argument by its argument name.
 */
export function assertStorableArguments(document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string | null) {
  const check = literalCheckOf(document, operationName);
  if (!check) return;
  if (check.problem) throw new ApiError('invalid_parameters', { problems: [check.problem] });
  const { selfChecked } = check;
  for (const [name, value] of Object.entries(variables ?? {})) {
    if (!selfChecked.has(name)) assertStorableText(value, name);
  }
}
