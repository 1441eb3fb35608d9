import { z } from 'zod';
import { ApiError, type FieldProblem } from './api-error.js';
import { assertStorableText } from './storable-text.js';

/**
 * A whole number from `min` to `max`. Every refusal says the range, in words made from the same numbers as the check:
 * "must be 1 to 100" for a whole number outside it, "must be an integer from 1 to 100" for anything else (a fraction, a
 * string, a number past 2^53). Each check carries its own message: zod gives a schema's `error` to every check that has
 * none, so `z.int({ error: 'must be an integer' }).max(100)` answered 500 with "must be an integer".
 */
export const wholeNumberIn = (min: number, max: number) => {
  const range = `must be ${min} to ${max}`;
  const notWhole = `must be an integer from ${min} to ${max}`;
  return z
    .int({ error: (issue) => (issue.code === 'invalid_type' ? notWhole : range) })
    .min(min, { error: range })
    .max(max, { error: range });
};

/**
 * A number from `min` to `max`, said as wholeNumberIn says it. REST reads a query string's number as plain decimal
 * digits (src/rest/params.ts), so the refusal of any other form names that form, with `example` (a typical value).
 */
export const decimalIn = (min: number, max: number, example: number) => {
  const range = `must be ${min} to ${max}`;
  return z
    .number({ error: `must be a plain decimal number from ${min} to ${max}, such as ${example} (no exponent)` })
    .min(min, { error: range })
    .max(max, { error: range });
};

/** Trimmed text of `min` to `max` characters, said the same way. */
export const textOfLength = (min: number, max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(min, { error: `must be ${min} to ${max} characters` })
    .max(max, { error: `must be ${min} to ${max} characters` });

/**
 * Parses a service input with its zod schema; failures become one invalid_parameters error naming every failing
 * field in our own words (zod's messages are not shown to users verbatim).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    // Valid by the schema's rules; still refused if PostgreSQL could not store or compare its text.
    assertStorableText(input, 'input');
    return result.data;
  }
  const problems: FieldProblem[] = [];
  for (const issue of result.error.issues) {
    const param = issue.path.length ? String(issue.path[0]) : 'input';
    if (!problems.some((p) => p.param === param)) problems.push({ param, problem: describeIssue(issue) });
  }
  throw new ApiError('invalid_parameters', { problems });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  // A message we wrote on the schema (`{ error: '…' }`) wins; zod's own defaults start with "Invalid" or "Too".
  if (issue.message && !/^(Invalid|Too (small|big)|Expected|Unrecognized)/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} items`
          : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} items`
          : `must be at most ${issue.maximum}`;
    case 'invalid_type':
      return issue.expected === 'int' ? 'must be an integer' : `must be a ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `has unknown fields: ${issue.keys.join(', ')}`;
    default:
      return 'is invalid';
  }
}
