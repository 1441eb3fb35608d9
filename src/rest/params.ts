import { Kind, isEnumType, type GraphQLEnumType, type GraphQLSchema, type TypeNode } from 'graphql';
import { ApiError } from '../errors/api-error.js';

/** How a REST query/path string becomes the GraphQL variable it feeds. */
export interface ParamSpec {
  /** REST name (snake_case). */
  name: string;
  /** GraphQL variable name (camelCase). */
  variable: string;
  scalar: 'String' | 'Int' | 'Float' | 'Boolean';
  list: boolean;
  required: boolean;
  in: 'query' | 'path';
  /** An enum-typed variable: REST takes the wire values (the enum values' internal values), read as String. */
  enumType?: GraphQLEnumType;
}

export function paramSpecFrom(name: string, variable: string, type: TypeNode, inPath: boolean, schema: GraphQLSchema): ParamSpec {
  let node = type;
  let required = false;
  let list = false;
  if (node.kind === Kind.NON_NULL_TYPE) {
    required = true;
    node = node.type;
  }
  if (node.kind === Kind.LIST_TYPE) {
    list = true;
    node = node.type.kind === Kind.NON_NULL_TYPE ? node.type.type : node.type;
  }
  const named = node.kind === Kind.NAMED_TYPE ? schema.getType(node.name.value) : undefined;
  if (named && isEnumType(named)) return { name, variable, scalar: 'String', list, required, in: inPath ? 'path' : 'query', enumType: named };
  if (node.kind !== Kind.NAMED_TYPE || !['String', 'Int', 'Float', 'Boolean'].includes(node.name.value)) {
    throw new Error(`REST parameter ${name}: unsupported variable type`);
  }
  return { name, variable, scalar: node.name.value as ParamSpec['scalar'], list, required, in: inPath ? 'path' : 'query' };
}

/** An enum's wire values in declared order (src/graphql/closed-set.ts states them; the printed schema sorts). */
function wireValuesOf(enumType: GraphQLEnumType): string[] {
  const declared = (enumType.extensions?.jsonSchema as { enum?: string[] } | undefined)?.enum;
  return declared ?? enumType.getValues().map((v) => v.value as string);
}

/**
 * Enum-typed variables still hold the wire values REST was sent (and the route's own check saw): each becomes its
 * GraphQL name for execution. A value the check let through in another form (any case, padded) is matched trimmed
 * and lower-cased; one outside the set is invalid_parameters naming the wire values.
 */
export function withEnumNames(variables: Record<string, unknown>, specs: ParamSpec[]): Record<string, unknown> {
  const result = { ...variables };
  for (const spec of specs) {
    const { enumType } = spec;
    const value = result[spec.variable];
    if (!enumType || value === undefined || value === null) continue;
    result[spec.variable] = Array.isArray(value) ? value.map((v) => enumNameOf(spec.name, enumType, v)) : enumNameOf(spec.name, enumType, value);
  }
  return result;
}

function enumNameOf(param: string, enumType: GraphQLEnumType, raw: unknown): string {
  const values = enumType.getValues();
  const text = String(raw);
  const found = values.find((v) => v.value === text) ?? values.find((v) => v.value === text.trim().toLowerCase());
  if (found) return found.name;
  throw new ApiError('invalid_parameters', {
    problems: [{ param, problem: `must be one of ${wireValuesOf(enumType).join(', ')}` }],
  });
}

const INTEGER = /^[+-]?\d{1,15}$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** One REST string as the variable's type; a value that does not coerce is invalid_parameters naming the parameter. */
export function coerceParam(spec: ParamSpec, raw: string): unknown {
  if (spec.list) {
    return raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => coerceScalar(spec, part));
  }
  return coerceScalar(spec, raw);
}

function coerceScalar(spec: ParamSpec, raw: string): unknown {
  const problem = (text: string) => new ApiError('invalid_parameters', { problems: [{ param: spec.name, problem: text }] });
  switch (spec.scalar) {
    case 'Int':
      if (!INTEGER.test(raw.trim())) throw problem('must be an integer');
      return Number(raw);
    case 'Float':
      if (!DECIMAL.test(raw.trim())) throw problem('must be a number');
      return Number(raw);
    case 'Boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw problem('must be true or false');
    default:
      return raw;
  }
}

/** A route's query parameters by REST name: made once, when the route is compiled (CompiledRoute.queryParams). */
export function queryParamIndex(specs: ParamSpec[]): Map<string, ParamSpec> {
  return new Map(specs.filter((s) => s.in === 'query').map((s) => [s.name, s]));
}

/**
 * Query string → variables, refusing unknown and repeated parameters (a mistyped filter must not be silently ignored).
 * One pass gathers each name's values in first-seen order; the second judges the names in that order, so the first
 * problem reported is the same whichever way a query repeats or mixes its parameters.
 */
export function variablesFromQuery(search: URLSearchParams, queryParams: Map<string, ParamSpec>): Record<string, unknown> {
  const given = new Map<string, { text: string; count: number }>();
  for (const [name, value] of search) {
    const seen = given.get(name);
    if (seen) {
      seen.text += `,${value}`;
      seen.count++;
    } else given.set(name, { text: value, count: 1 });
  }
  const variables: Record<string, unknown> = {};
  for (const [name, { text, count }] of given) {
    const spec = queryParams.get(name);
    if (!spec) {
      const known = [...queryParams.keys()];
      throw new ApiError('invalid_parameters', {
        problems: [
          {
            param: name,
            problem: known.length ? `is not a parameter of this route (known: ${known.join(', ')})` : 'is not a parameter of this route',
          },
        ],
      });
    }
    // A list takes `a,b` and `a=x&a=y` alike (what OpenAPI clients send for form style, explode true or false);
    // any other parameter given twice is ambiguous and refused.
    if (count > 1 && !spec.list) throw new ApiError('invalid_parameters', { problems: [{ param: name, problem: 'must be given once' }] });
    variables[spec.variable] = coerceParam(spec, text);
  }
  return variables;
}
