import { Kind, type TypeNode } from 'graphql';
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
}

export function paramSpecFrom(name: string, variable: string, type: TypeNode, inPath: boolean): ParamSpec {
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
  if (node.kind !== Kind.NAMED_TYPE || !['String', 'Int', 'Float', 'Boolean'].includes(node.name.value)) {
    throw new Error(`REST parameter ${name}: unsupported variable type`);
  }
  return { name, variable, scalar: node.name.value as ParamSpec['scalar'], list, required, in: inPath ? 'path' : 'query' };
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

/** Query string → variables, refusing unknown and repeated parameters (a mistyped filter must not be silently ignored). */
export function variablesFromQuery(search: URLSearchParams, specs: ParamSpec[]): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const byName = new Map(specs.filter((s) => s.in === 'query').map((s) => [s.name, s]));
  for (const name of new Set(search.keys())) {
    const spec = byName.get(name);
    if (!spec) {
      const known = [...byName.keys()];
      throw new ApiError('invalid_parameters', {
        problems: [
          {
            param: name,
            problem: known.length ? `is not a parameter of this route (known: ${known.join(', ')})` : 'is not a parameter of this route',
          },
        ],
      });
    }
    const values = search.getAll(name);
    // A list takes `a,b` and `a=x&a=y` alike (what OpenAPI clients send for form style, explode true or false);
    // any other parameter given twice is ambiguous and refused.
    if (values.length > 1 && !spec.list) throw new ApiError('invalid_parameters', { problems: [{ param: name, problem: 'must be given once' }] });
    variables[spec.variable] = coerceParam(spec, values.join(','));
  }
  return variables;
}
