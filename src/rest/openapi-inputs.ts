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
  const valueOf = (itemBounds: Bounds) => {
    const item = Object.fromEntries(KEYWORDS.map((keyword) => [keyword, itemBounds[keyword]]));
    const values = (options.enum ?? item.enum) as readonly unknown[] | undefined;
    return values ? { type, enum: [...values] } : storable(defined({ ...item, type }) as OpenAPIV3_1.SchemaObject);
  };
  if (!options.list) return valueOf(bounds);
  // A tuple (a point's latitude and longitude) states each position's bounds; its items are those of every position.
  const positions = bounds.prefixItems as Bounds[] | undefined;
  if (positions) {
    return defined({
      type: 'array',
      items: { type },
      prefixItems: positions.map((position) => valueOf(published(position))),
      minItems: bounds.minItems,
      maxItems: bounds.maxItems,
    }) as OpenAPIV3_1.SchemaObject;
  }
  return defined({
    type: 'array',
    items: valueOf(published(bounds.items as Bounds | undefined)),
    minItems: bounds.minItems,
    maxItems: bounds.maxItems,
  }) as OpenAPIV3_1.SchemaObject;
}

/** An input schema's relations (parsedBy), with each input named as the request names it. */
export function relationsOf(schema: InputSchema | undefined, restName: (name: string) => string): string[] {
  const or = (keys: readonly string[]) => (keys.length === 1 ? restName(keys[0]) : `Or(${keys.map(restName).join(', ')})`);
  return (schema?.relations ?? []).map((relation: InputRelation) => {
    switch (relation.kind) {
      case 'order':
        return `${restName(relation.lower)} ${relation.strict ? '<' : '<='} ${restName(relation.upper)}`;
      case 'or':
        return `Or(${relation.keys.map(restName).join(', ')})`;
      case 'zeroOrOne':
        return `ZeroOrOne(${relation.keys.map(restName).join(', ')})`;
      case 'requires': {
        const condition = relation.equals === undefined ? restName(relation.key) : `${restName(relation.key)}=='${relation.equals}'`;
        return `IF ${condition} THEN ${or(relation.needs)}`;
      }
    }
  });
}
