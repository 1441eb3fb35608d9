import { Kind, isEnumType, parse, type DocumentNode, type GraphQLEnumType, type GraphQLSchema, type Source, type TypeNode } from 'graphql';
import { ApiError } from '../errors/api-error.js';
import { argumentFedBy, type NumberRefusal } from '../graphql/refused-argument.js';

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
  /** A number the variable's argument bounds: a value REST cannot pass to GraphQL is refused in its module's words. */
  refuse?: NumberRefusal;
}

/** Route documents by source, each parsed once more when its route is compiled (numberRefusalFor). */
const routeDocuments = new WeakMap<Source, DocumentNode>();

/**
 * The refusal of the argument a route's variable feeds (numberRefusalOf), found in the route's document: compileRoute
 * hands each variable's type node, whose location's source is that document. Without one (a document parsed without
 * locations) the coercion below says only what GraphQL takes.
 */
function numberRefusalFor(variable: string, type: TypeNode, schema: GraphQLSchema): NumberRefusal | undefined {
  const source = type.loc?.source;
  if (!source) return undefined;
  let document = routeDocuments.get(source);
  if (!document) routeDocuments.set(source, (document = parse(source)));
  return argumentFedBy(document, variable, schema)?.refuse;
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
  const scalar = node.name.value as ParamSpec['scalar'];
  const refuse = scalar === 'Int' || scalar === 'Float' ? numberRefusalFor(variable, type, schema) : undefined;
  return { name, variable, scalar, list, required, in: inPath ? 'path' : 'query', ...(refuse ? { refuse } : {}) };
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

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** GraphQL's Int is 32-bit: a larger whole number would be refused by execution, not by the route's own check. */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

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

/**
 * What GraphQL cannot take is refused here, by the argument's own parser when it has one (the value it is shown is
 * the text itself when that is not a plain number: "1.5", "1e3" and "ten" are all the wrong form), so the answer
 * states the argument's range and the module's code as an in-form value outside the range gets. Without a parser,
 * GraphQL's own range.
 */
function coerceScalar(spec: ParamSpec, raw: string): unknown {
  const problem = (text: string) => new ApiError('invalid_parameters', { problems: [{ param: spec.name, problem: text }] });
  const text = raw.trim();
  switch (spec.scalar) {
    case 'Int': {
      const value = INTEGER.test(text) ? Number(text) : null;
      if (value !== null && value >= INT_MIN && value <= INT_MAX) return value;
      throw spec.refuse?.(value ?? raw) ?? problem(`must be an integer from ${INT_MIN} to ${INT_MAX}`);
    }
    case 'Float': {
      const value = DECIMAL.test(text) ? Number(text) : null;
      if (value !== null && Number.isFinite(value)) return value;
      throw spec.refuse?.(raw) ?? problem('must be a plain decimal number such as 1000 (no exponent)');
    }
    case 'Boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw problem('must be true or false');
    default:
      return raw;
  }
}

/** A value as REST would have received it in a query string. */
const asText = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));

/** A typed value of the variable's own type is taken as it is; any other is read as REST reads its text. */
function typedScalar(spec: ParamSpec, value: unknown): unknown {
  const fits =
    spec.enumType || spec.scalar === 'String'
      ? typeof value === 'string'
      : spec.scalar === 'Boolean'
        ? typeof value === 'boolean'
        : spec.scalar === 'Int'
          ? Number.isInteger(value) && (value as number) >= INT_MIN && (value as number) <= INT_MAX
          : typeof value === 'number' && Number.isFinite(value);
  return fits ? value : coerceScalar(spec, asText(value));
}

/**
 * Typed arguments by REST name (an assistant tool's JSON) → variables, under REST's rules: unknown names are refused
 * as in a query string, null means absent, a list's text items are trimmed and empty ones dropped, and a value not of
 * the variable's type is read as its text would be, so it is refused in the same words. Path parameters come here too.
 */
export function variablesFromArguments(
  args: Record<string, unknown>,
  specs: ParamSpec[],
  queryParams: Map<string, ParamSpec>,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const byName = new Map(specs.map((s) => [s.name, s]));
  // In the arguments' order, as a query string's parameters are judged, then the path's.
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const spec = byName.get(name);
    if (!spec) throw notAParameter(name, queryParams);
    if (spec.list && Array.isArray(value)) {
      const items = value.map((item) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== '' && item !== null);
      variables[spec.variable] = items.map((item) => typedScalar(spec, item));
    } else variables[spec.variable] = spec.list ? coerceParam(spec, asText(value)) : typedScalar(spec, value);
  }
  for (const spec of specs) if (spec.in === 'path' && !(spec.variable in variables)) variables[spec.variable] = coerceParam(spec, '');
  return variables;
}

function notAParameter(name: string, queryParams: Map<string, ParamSpec>): ApiError {
  const known = [...queryParams.keys()];
  return new ApiError('invalid_parameters', {
    problems: [
      { param: name, problem: known.length ? `is not a parameter of this route (known: ${known.join(', ')})` : 'is not a parameter of this route' },
    ],
  });
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
    if (!spec) throw notAParameter(name, queryParams);
    // A list takes `a,b` and `a=x&a=y` alike (what OpenAPI clients send for form style, explode true or false);
    // any other parameter given twice is ambiguous and refused.
    if (count > 1 && !spec.list) throw new ApiError('invalid_parameters', { problems: [{ param: name, problem: 'must be given once' }] });
    variables[spec.variable] = coerceParam(spec, text);
  }
  return variables;
}
