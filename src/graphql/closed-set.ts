import { builder, type Types } from './builder.js';

/** The GraphQL name of a wire value: UPPER_SNAKE (`hot-tub` → HOT_TUB, `per_stay` → PER_STAY, `offSeason` → OFF_SEASON). */
export function enumName(wireValue: string): string {
  return wireValue
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toUpperCase();
}

/** A closed set of wire values as a GraphQL enum, and the description its fields keep. */
export interface ClosedSet<V extends string = string> {
  /** Typed string: rows and services hold plain strings, each checked by its own schema where it enters. */
  ref: PothosSchemaTypes.EnumRef<Types, string>;
  values: readonly V[];
  /**
   * A field's description: the set in wire values, then `note`. REST and the OpenAPI document read this text (field
   * descriptions are shared), so it names the values REST sends; each enum value's own description names it too.
   */
  describe: (note?: string) => string;
}

/**
 * A GraphQL enum for a closed set (issue 14). This is the one place the mapping lives: each value's GraphQL name is
 * the UPPER_SNAKE form of its wire value, and its internal value is the wire value itself, so resolvers and services
 * keep reading and returning wire values, REST gives them back (src/rest/enum-values.ts) and the OpenAPI document
 * lists them (src/rest/openapi-schemas.ts).
 */
export function closedSet<const V extends string>(name: string, values: readonly V[], description: string): ClosedSet<V> {
  const seen = new Map<string, string>();
  for (const value of values) {
    const graphqlName = enumName(value);
    const clash = seen.get(graphqlName);
    if (clash !== undefined) throw new Error(`enum ${name}: ${clash} and ${value} would both be ${graphqlName}`);
    seen.set(graphqlName, value);
  }
  const ref = builder.enumType(name, {
    description,
    // The schema is printed sorted, which sorts enum values too; the OpenAPI document lists the wire values in the
    // order they are declared (src/rest/openapi-schemas.ts reads `extensions.jsonSchema`, as for scalars).
    extensions: { jsonSchema: { type: 'string', enum: [...values] } },
    values: Object.fromEntries(values.map((value) => [enumName(value), { value, description: `REST value: ${value}.` }])) as Record<
      string,
      { value: V; description: string }
    >,
  }) as unknown as PothosSchemaTypes.EnumRef<Types, string>;
  return {
    ref,
    values,
    describe: (note = '') => `${values.length === 1 ? `Always ${values[0]}.` : `One of ${values.join(', ')}.`}${note ? ` ${note}` : ''}`,
  };
}

/**
 * closedSet over every member of a TypeScript union, given as the keys of a record the compiler checks for
 * completeness: an output field typed by the union can never hold a value its enum lacks (which GraphQL would
 * answer with an error instead of the value).
 */
export function closedSetOf<const V extends string>(name: string, members: Record<V, true>, description: string): ClosedSet<V> {
  return closedSet(name, Object.keys(members) as V[], description);
}
