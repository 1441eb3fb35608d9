import { z } from 'zod';
import { IN_OUR_WORDS, invalidParameters } from './classify.js';
import { STORABLE_CHARACTER, STORABLE_TEXT_PATTERN, assertStorableText } from './storable-text.js';

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

/**
 * Characters as the spec, JSON Schema (minLength, maxLength) and PostgreSQL count them: Unicode code points. A
 * string's `length` counts UTF-16 units, two for an emoji, so a bound stated in characters that checked `length`
 * refused text its own OpenAPI schema allowed.
 */
export function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/**
 * The JSON Schema `pattern` of text that keeps at least `min` characters once trimmed and that PostgreSQL can store:
 * zod's toJSONSchema cannot see a trim. String#trim removes exactly what `\s` matches (ECMA-262 WhiteSpace and
 * LineTerminator), so the pattern asks for `min` characters from one that is neither to another.
 */
export function trimmedTextPattern(min: number): string {
  if (min <= 0) return STORABLE_TEXT_PATTERN;
  const edge = '[^\\s\\u0000]';
  const span = min === 1 ? edge : `${edge}${STORABLE_CHARACTER}{${min - 2},}${edge}`;
  return `^${STORABLE_CHARACTER}*${span}${STORABLE_CHARACTER}*$`;
}

/**
 * `schema` with `min` to `max` characters (code points), each bound refused in its own words, and the same numbers
 * stated for the OpenAPI document (zod states only the `.min()`/`.max()` it checks, which count UTF-16 units).
 */
export function ofLength(
  schema: z.ZodString,
  bounds: { min: number; max: number; tooShort: string; tooLong: string; pattern?: string },
): z.ZodString {
  const { min, max, tooShort, tooLong, pattern } = bounds;
  return schema
    .refine((text) => characters(text) >= min, { error: tooShort })
    .refine((text) => characters(text) <= max, { error: tooLong })
    .meta({ ...(min > 0 ? { minLength: min } : {}), maxLength: max, ...(pattern ? { pattern } : {}) });
}

/** Trimmed text of `min` to `max` characters, said the same way. */
export const textOfLength = (min: number, max: number) =>
  ofLength(z.string({ error: 'is required' }).trim(), {
    min,
    max,
    tooShort: `must be ${min} to ${max} characters`,
    tooLong: `must be ${min} to ${max} characters`,
    pattern: trimmedTextPattern(min),
  });

/** A trimmed, non-empty text filter of at most `max` characters: "must not be empty", "must be at most 100 characters". */
export const nonEmptyText = (max: number) =>
  ofLength(z.string().trim(), {
    min: 1,
    max,
    tooShort: 'must not be empty',
    tooLong: `must be at most ${max} characters`,
    pattern: trimmedTextPattern(1),
  });

/**
 * A rule between two or more inputs, which JSON Schema cannot state: published as the operation's `x-dependencies`
 * (IDL4OAS: `price_min <= price_max`, `Or(slug, state, city)`) with REST names, from the input schema's `relations`.
 */
export type InputRelation =
  | { kind: 'order'; lower: string; upper: string; strict: boolean }
  | { kind: 'or'; keys: readonly string[] }
  /** At most one of `keys` is given (IDL4OAS ZeroOrOne). */
  | { kind: 'zeroOrOne'; keys: readonly string[] }
  /** When `key` is given (and, with `equals`, has that value), one of `needs` is given too (IDL4OAS IF … THEN Or(…)). */
  | { kind: 'requires'; key: string; equals?: string; needs: readonly string[] };

/**
 * A rule between inputs other than an ordering: its relation (published as ordered() publishes its orderings) and the
 * refusal of an input that breaks it, naming the parameter a caller should change.
 */
export interface InputRule {
  relation: Extract<InputRelation, { kind: 'zeroOrOne' | 'requires' }>;
  /** Where the refusal points when the rule is broken: the input named and the words. */
  refusal: (input: Record<string, unknown>) => { path: string; error: string };
}

/** Whether `input` keeps `relation` (an unset input is undefined or null). */
function keeps(relation: InputRule['relation'], input: Record<string, unknown>): boolean {
  const given = (key: string) => input[key] !== undefined && input[key] !== null;
  if (relation.kind === 'zeroOrOne') return relation.keys.filter(given).length <= 1;
  if (!given(relation.key) || (relation.equals !== undefined && input[relation.key] !== relation.equals)) return true;
  return relation.needs.some(given);
}

/**
 * `schema` refusing, when both are given, an `upper` below `lower` (or equal to it, when strict) in `error`'s words at
 * `upper`; each ordering also stated as a relation (InputRelation). Numbers compare as numbers, ISO dates as text.
 */
export function ordered<S extends z.ZodObject>(
  schema: S,
  orderings: ReadonlyArray<{ lower: keyof S['shape'] & string; upper: keyof S['shape'] & string; strict?: boolean; error: string }>,
  rules: readonly InputRule[] = [],
): S {
  let result = schema;
  for (const { lower, upper, strict, error } of orderings) {
    result = result.refine(
      (input: Record<string, unknown>) => {
        // A number or an ISO date: both compare with < as they should.
        const low = input[lower] as number | null | undefined;
        const high = input[upper] as number | null | undefined;
        return low === undefined || low === null || high === undefined || high === null || (strict ? low < high : low <= high);
      },
      { path: [upper], error },
    );
  }
  if (rules.length) {
    result = result.superRefine((input: Record<string, unknown>, ctx) => {
      for (const rule of rules) {
        if (keeps(rule.relation, input)) continue;
        const { path, error } = rule.refusal(input);
        ctx.addIssue({ code: 'custom', path: [path], message: error });
      }
    });
  }
  const relations: InputRelation[] = [
    ...orderings.map(({ lower, upper, strict }): InputRelation => ({ kind: 'order', lower, upper, strict: !!strict })),
    ...rules.map((rule) => rule.relation),
  ];
  return result.meta({ relations });
}

/**
 * Parses a service input with its zod schema; failures become one invalid_parameters error naming every failing
 * field in our own words (src/errors/classify.ts: a message written on the schema, else one made from the issue's
 * code and bounds; zod's messages are not shown to users verbatim).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // Given any parse context, zod parses at about a third of the speed (docs/upstream.md); our words only describe a
  // failure, so a refused input is parsed again with them.
  const result = schema.safeParse(input);
  if (result.success) {
    // Valid by the schema's rules; still refused if PostgreSQL could not store or compare its text.
    assertStorableText(input, 'input');
    return result.data;
  }
  const described = schema.safeParse(input, IN_OUR_WORDS);
  throw invalidParameters(described.success ? result.error : described.error);
}
