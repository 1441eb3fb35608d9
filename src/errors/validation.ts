import { z } from 'zod';
import { ApiError, type FieldProblem } from './api-error.js';
import { assertStorableText } from './storable-text.js';

/** A whole number from `min` to `max`; both refusals say the range, so the words come from the same numbers as the check. */
export const wholeNumberIn = (min: number, max: number) =>
  z
    .int({ error: 'must be an integer' })
    .min(min, { error: `must be ${min} to ${max}` })
    .max(max, { error: `must be ${min} to ${max}` });

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
