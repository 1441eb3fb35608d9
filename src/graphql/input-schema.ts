import { z } from 'zod';
import type { InputRelation } from '../errors/validation.js';

/** The extension key of a field's (or an input type's) input schema: see parsedBy. */
export const INPUT_SCHEMA = 'inputSchema';

/**
 * The JSON Schema of the zod object that parses a field's arguments or an input type's fields, keyed by their GraphQL
 * names: `properties` hold each one's bounds, `relations` the rules between them (src/errors/validation.ts).
 */
export interface InputSchema {
  properties?: Record<string, Record<string, unknown>>;
  relations?: InputRelation[];
  [keyword: string]: unknown;
}

/**
 * Spread into the `extensions` of a field whose arguments `input` parses, or of an input type whose fields it parses:
 * the bounds the module's own parser enforces, as zod states them (toJSONSchema, the input side). The OpenAPI document
 * (src/rest/openapi.ts), and through it the MCP tools, publish them from here, so a bound is written once, where it
 * is enforced.
 */
export function parsedBy(input: z.ZodObject): { [INPUT_SCHEMA]: InputSchema } {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' });
  return { [INPUT_SCHEMA]: schema as InputSchema };
}

/** The input schema a field or an input type carries (parsedBy), if any. */
export function inputSchemaOf(owner: { extensions?: Readonly<Record<string, unknown>> | null }): InputSchema | undefined {
  const value = owner.extensions?.[INPUT_SCHEMA];
  return value && typeof value === 'object' ? (value as InputSchema) : undefined;
}
