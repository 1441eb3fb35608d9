import type { OpenAPIV3_1 } from 'openapi-types';
import { STORABLE_TEXT_PATTERN } from '../errors/storable-text.js';
import type { InputRelation } from '../errors/validation.js';
import type { InputSchema } from '../graphql/input-schema.js';
import { defined } from './openapi-schemas.js';

// What a request may carry, as the OpenAPI document states it: each parameter's or body field's type from GraphQL, its
// bounds from the zod schema that parses it (src/graphql/input-schema.ts), and the rules between inputs.

type Bounds = Record<string, unknown>;

/** The keywords an input's schema publishes, in this order (a stable document reads the same on every build). */
const KEYWORDS = ['type', 'format', 'enum', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum'] as const;

/**
 * An input's bounds as the document publishes them: null left out (an omitted input is what null means, and MCP
 * clients' strict schemas refuse `type: [x, "null"]`), no default (GraphQL's is the one that applies), and an enum alone
 * when there is one (the other keywords only restate it).
 */
function published(bounds: Bounds | undefined): Bounds {
  if (!bounds) return {};
  const branches = bounds.anyOf as Bounds[] | undefined;
  const nonNull = branches?.filter((branch) => branch.type !== 'null');
  const schema = nonNull?.length === 1 ? nonNull[0] : bounds;
  return schema.enum ? { type: schema.type, enum: schema.enum } : schema;
}

/**
 * Every string input is refused when PostgreSQL could not store it (src/errors/storable-text.ts, for every argument of
 * both surfaces): one whose bounds say nothing narrower (a pattern, an enum, a format) gets the pattern that says so.
 */
function storable(schema: OpenAPIV3_1.SchemaObject): OpenAPIV3_1.SchemaObject {
  if (schema.type !== 'string' || schema.pattern || schema.enum || schema.format) return schema;
  return { ...schema, pattern: STORABLE_TEXT_PATTERN };
}

/**
 * The schema of one input: `type` from GraphQL, the rest from the bounds its parser enforces, or only `enum` when a
 * closed set (or the route's documentation) gives one; a list as an array of such items.
 */
export function inputValueSchema(
  type: 'string' | 'integer' | 'number' | 'boolean',
  options: { list: boolean; bounds?: Bounds; enum?: readonly unknown[] },
): OpenAPIV3_1.SchemaObject {
  const bounds = published(options.bounds);
  const itemBounds = options.list ? published(bounds.items as Bounds | undefined) : bounds;
  const item = Object.fromEntries(KEYWORDS.map((keyword) => [keyword, itemBounds[keyword]]));
  const values = (options.enum ?? item.enum) as readonly unknown[] | undefined;
  const scalar = values ? { type, enum: [...values] } : storable(defined({ ...item, type }) as OpenAPIV3_1.SchemaObject);
  if (!options.list) return scalar;
  return defined({ type: 'array', items: scalar, minItems: bounds.minItems, maxItems: bounds.maxItems }) as OpenAPIV3_1.SchemaObject;
}

/** An input schema's relations (parsedBy), with each input named as the request names it. */
export function relationsOf(schema: InputSchema | undefined, restName: (name: string) => string): string[] {
  return (schema?.relations ?? []).map((relation: InputRelation) =>
    relation.kind === 'order'
      ? `${restName(relation.lower)} ${relation.strict ? '<' : '<='} ${restName(relation.upper)}`
      : `Or(${relation.keys.map(restName).join(', ')})`,
  );
}
