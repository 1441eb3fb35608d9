import { API_VERSION } from '../config/api-version.js';
import type { ToolContract } from '../mcp/mcp.schemas.js';
import {
  Kind,
  TypeInfo,
  typeFromAST,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  getNamedType,
  isInputObjectType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CompiledRoute } from './adapter.js';
import type { ParamSpec } from './params.js';
import { snakeCase, type RestRoute } from './route.js';
import { componentRef, defined, operationRootType, responseBodySchema, restDescription } from './openapi-schemas.js';
import { inputValueSchema, relationsOf } from './openapi-inputs.js';
import { inputSchemaOf } from '../graphql/input-schema.js';
import { COMMON_ERRORS, HEADERS, errorResponses, errorSchema, responseHeaders } from './openapi-responses.js';
import { HTTP_CONVENTIONS_TEXT } from '../http/conventions.js';

/** One line per tag, for the reference's sections. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Venues: 'Whole-property wedding venues: search (§4.1) and detail (§4.2), priced for the whole minimum stay.',
  Vendors: 'Wedding vendors: search, categories and detail (§4.7–4.9).',
  'Cost intelligence': 'The pricing estimator, live cost benchmarks and regional budget ranges (§4.3–4.5).',
  Knowledge: 'Search over authored planning notes and policies, by meaning and by words (§4.6).',
  Inspiration: 'Curated inspiration photos linked to their venues and vendors (§4.13).',
  Blog: 'Published blog posts, authors and tags.',
  Inquiries: 'The two lead-creating endpoints, idempotent (§4.10–4.12). Send only with the end user’s go-ahead.',
  Meta: 'The description document itself.',
};

const META_TAG = 'Meta';

const INFO_DESCRIPTION = [
  'Wedding venue and vendor discovery. Each /api/v1 route runs one GraphQL operation on the same schema as /graphql; ' +
    'REST field and parameter names are the snake_case of the GraphQL names.',
  '**Authentication (§5).** Send the API key as `Authorization: Bearer <API_KEY>` or `X-Service-Key: <API_KEY>`. ' +
    'Only this document needs no key. No key: 401 missing_api_key; an invalid or revoked key: 401 invalid_api_key.',
  '**Errors (§7).** Every error body is the `Error` envelope `{ "error": { type, code, message, param?, request_id, doc_url, hint? } }`; ' +
    'each operation lists the codes it can answer with at each status. A path that matches no route answers 404 route_not_found. ' +
    'Query parameters a route does not have, and a non-list parameter given more than once, are refused with 400 invalid_parameters ' +
    'naming them; list parameters (such as amenities) take both `a,b` and `a=x&a=y`. A number in a query string is written in ' +
    'plain decimal digits (1000, 0.5), never in exponent notation (1e3). Rules between inputs that a schema cannot state ' +
    '(a minimum not above its maximum, one of several inputs required) are listed in each operation’s `x-dependencies` (IDL4OAS).',
  `**HTTP caching (§8.10), compression and connections.** ${HTTP_CONVENTIONS_TEXT} Beside the X-RateLimit-* headers, responses carry the IETF ` +
    '`RateLimit-Policy` and `RateLimit` headers describing the same windows.',
  '**Limits (§8).** Per minute: 10 (Free), 60 (Pro, Partner); per day: 100 / 10,000 read requests, 20 venue detail lookups, ' +
    '5 inquiries of each kind. Windows roll. Responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset ' +
    '(not a 401 for an invalid key), and a 429 carries Retry-After. Requests without a key share a per-IP limit of 400 per minute.',
  '**Pagination.** A `next_cursor` is bound to the filters (and sort) of the search that issued it: pass it back as `cursor` with the same ' +
    'filters; otherwise 400 invalid_cursor. **Slugs** in paths may contain slashes: send each as %2F (unencoded slashes are accepted too).',
  '**Versioning (§9).** The version is the path prefix /api/v1; this document is version 1.0.0. Deprecated response fields are marked ' +
    '`deprecated` and carry the same values as their replacements until their removal, announced for after 2027-01-06: per_night ' +
    '(use per_night_average); median_nightly, typical_low_nightly, typical_high_nightly (use the matching *_base_per_stay fields).',
].join('\n\n');

const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  bearer: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <API_KEY>` (§5.1).' },
  serviceKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Key',
    description: 'The same key in `X-Service-Key`. Both headers with different keys is refused with 401 invalid_api_key.',
  },
};

const PARAM_TYPES: Record<ParamSpec['scalar'], 'string' | 'integer' | 'number' | 'boolean'> = {
  String: 'string',
  Int: 'integer',
  Float: 'number',
  Boolean: 'boolean',
};

/**
 * What the document says of a variable: the argument it feeds directly, its bounds (from the input schema of that
 * argument's field, src/graphql/input-schema.ts), and its GraphQL default, else the argument's: what applies when omitted.
 */
interface VariableFacts {
  argument?: GraphQLArgument;
  bounds?: Record<string, unknown>;
  defaultValue?: unknown;
}

function variableFacts(compiled: CompiledRoute, schema: GraphQLSchema): Map<string, VariableFacts> {
  const facts = new Map<string, VariableFacts>();
  const typeInfo = new TypeInfo(schema);
  visit(
    compiled.document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (node.value.kind !== Kind.VARIABLE || !argument || facts.has(node.value.name.value)) return;
        const field = typeInfo.getFieldDef();
        const bounds = field ? inputSchemaOf(field)?.properties?.[argument.name] : undefined;
        facts.set(node.value.name.value, { argument, bounds, defaultValue: argument.defaultValue });
      },
    }),
  );
  const operation = compiled.document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  for (const definition of operation?.variableDefinitions ?? []) {
    if (!definition.defaultValue) continue;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    const name = definition.variable.name.value;
    facts.set(name, { ...facts.get(name), defaultValue: type ? valueFromAST(definition.defaultValue, type) : undefined });
  }
  return facts;
}

/**
 * A parameter's value schema: the variable's scalar (a list as an array) with the bounds its argument's parser
 * enforces; a closed set's values (a GraphQL enum, in declared order) or the route's documented ones.
 */
function valueSchema(spec: ParamSpec, route: RestRoute, facts: VariableFacts | undefined): OpenAPIV3_1.SchemaObject {
  const docs = route.paramDocs?.[spec.name] ?? {};
  const closed = (spec.enumType?.extensions?.jsonSchema as { enum?: readonly string[] } | undefined)?.enum;
  const base = inputValueSchema(PARAM_TYPES[spec.scalar], { list: spec.list, bounds: facts?.bounds, enum: docs.enum ?? closed });
  return defined({ ...base, default: docs.default ?? facts?.defaultValue ?? undefined });
}

function description(spec: ParamSpec, route: RestRoute, facts: VariableFacts | undefined): string | undefined {
  const parts = [route.paramDocs?.[spec.name]?.description ?? (facts?.argument ? restDescription(facts.argument) : undefined)];
  if (spec.list && !/comma-separated/i.test(parts[0] ?? '')) parts.push('Comma-separated list.');
  // RestRoute.path: a path parameter may hold slashes; the adapter decodes %2F after matching.
  if (spec.in === 'path')
    parts.push(parts[0]?.includes('%2F') ? 'Unencoded slashes are accepted too.' : 'Send each slash as %2F (unencoded slashes are accepted too).');
  return parts.filter(Boolean).join(' ') || undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parameter(spec: ParamSpec, route: RestRoute, facts: VariableFacts | undefined): OpenAPIV3_1.ParameterObject {
  const docs = route.paramDocs?.[spec.name] ?? {};
  // An OpenAPI example is the value before serialisation: a list as an array, a path value not yet percent-encoded.
  let example = docs.example;
  if (typeof example === 'string' && spec.list) example = example.split(',');
  else if (typeof example === 'string' && spec.in === 'path') example = safeDecode(example);
  return defined({
    name: spec.name,
    in: spec.in,
    required: spec.in === 'path' || spec.required,
    description: spec.list
      ? `${description(spec, route, facts)} Accepted comma-separated (${spec.name}=a,b) or repeated (${spec.name}=a&${spec.name}=b).`
      : description(spec, route, facts),
    deprecated: facts?.argument?.deprecationReason ? true : undefined,
    // A list may come comma-separated or repeated; the document names form style with explode (repeated), what
    // generated clients send by default.
    style: spec.list ? 'form' : undefined,
    explode: spec.list ? true : undefined,
    schema: valueSchema(spec, route, facts) as OpenAPIV3_1.ParameterObject['schema'],
    example,
  });
}

/** POST routes (§4.10–4.11) take their non-path variables as one JSON object body, named like query parameters. */
function requestBody(specs: ParamSpec[], route: RestRoute, facts: Map<string, VariableFacts>): OpenAPIV3_1.RequestBodyObject {
  const properties = Object.fromEntries(
    specs.map((spec) => {
      const known = facts.get(spec.variable);
      return [spec.name, defined({ ...valueSchema(spec, route, known), description: description(spec, route, known) })];
    }),
  );
  const required = specs.filter((s) => s.required).map((s) => s.name);
  return { required: true, content: { 'application/json': { schema: { type: 'object', properties, required } } } };
}

/** The input object type of a route's body variable (RestRoute.body). */
function bodyType(compiled: CompiledRoute, schema: GraphQLSchema): GraphQLInputObjectType {
  const body = compiled.route.body!;
  const operation = compiled.document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const definition = operation?.variableDefinitions?.find((v) => v.variable.name.value === body.variable);
  const type = definition ? getNamedType(typeFromAST(schema, definition.type) as GraphQLInputType) : undefined;
  if (!type || !isInputObjectType(type))
    throw new Error(`OpenAPI: ${compiled.route.operationId}: body variable ${body.variable} is not an input object`);
  return type;
}

/**
 * A route whose whole body is one input object variable (RestRoute.body): the body schema is that input type with
 * snake_case field names and the bounds of the zod schema that parses it; unknown fields are refused
 * (additionalProperties false). `required` comes from the input type's non-null fields.
 */
function inputBody(compiled: CompiledRoute, schema: GraphQLSchema): OpenAPIV3_1.RequestBodyObject | undefined {
  if (!compiled.route.body) return undefined;
  const type = bodyType(compiled, schema);
  const bounds = inputSchemaOf(type)?.properties;
  const properties = Object.fromEntries(
    Object.values(type.getFields()).map((field) => {
      const scalar = getNamedType(field.type).name as ParamSpec['scalar'];
      const value = inputValueSchema(PARAM_TYPES[scalar] ?? 'string', { list: false, bounds: bounds?.[field.name] });
      return [snakeCase(field.name), defined({ ...value, description: restDescription(field) })];
    }),
  );
  const required = Object.values(type.getFields())
    .filter((f) => isNonNullType(f.type))
    .map((f) => snakeCase(f.name));
  return {
    required: true,
    description: restDescription(type),
    content: { 'application/json': { schema: { type: 'object', properties, required, additionalProperties: false } } },
  };
}

/** Documented request headers of a route (e.g. X-Idempotency-Key). */
function headerParameters(route: RestRoute): OpenAPIV3_1.ParameterObject[] {
  return (route.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: false,
    description: h.description,
    schema: defined({ type: 'string', minLength: h.minLength, maxLength: h.maxLength }) as OpenAPIV3_1.ParameterObject['schema'],
  }));
}

/**
 * The rules between a route's inputs that JSON Schema cannot state (a minimum not above its maximum, one of several
 * inputs required), as IDL4OAS `x-dependencies` statements naming REST parameters and body fields.
 */
function dependencies(compiled: CompiledRoute, schema: GraphQLSchema): string[] | undefined {
  const operation = compiled.document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const field = operationRootType(schema, operation).getFields()[compiled.root.name.value];
  const statements = [
    ...relationsOf(inputSchemaOf(field), (argument) => compiled.paramOfArgument.get(argument) ?? snakeCase(argument)),
    ...(compiled.route.body ? relationsOf(inputSchemaOf(bodyType(compiled, schema)), snakeCase) : []),
  ];
  return statements.length ? statements : undefined;
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

function successDescription(route: RestRoute): string {
  if (route.envelope.kind === 'object') return 'The result in `data`.';
  if (route.envelope.kind === 'spread') return 'The result in `data`, with the facts that qualify it beside it.';
  if (route.envelope.kind === 'offsetPage') return 'One page of results in `data`, with `pagination` (offset style: limit, offset, total, has_more).';
  if (route.envelope.kind === 'pageNumberPage') return 'One page of results in `data`, with `pagination` (page style: limit, page, has_more).';
  const extras = (route.envelope.extras ?? []).map((e) => `, \`${e}\``).join('');
  return `One page of results in \`data\`, with \`pagination\` (cursor style)${extras}.`;
}

function operation(
  compiled: CompiledRoute,
  schema: GraphQLSchema,
  components: Record<string, OpenAPIV3_1.SchemaObject>,
): OpenAPIV3_1.OperationObject {
  const { route } = compiled;
  const facts = variableFacts(compiled, schema);
  const bodyName = `${pascal(route.operationId)}Response`;
  const body = responseBodySchema(compiled, schema, components);
  if (components[bodyName]) throw new Error(`OpenAPI: component ${bodyName} is defined twice`);
  components[bodyName] = body;
  const success = route.method === 'POST' ? 201 : 200;
  const inBody = route.method === 'POST' ? compiled.params.filter((p) => p.in !== 'path') : [];
  return defined({
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: [
      ...compiled.params.filter((p) => !inBody.includes(p)).map((p) => parameter(p, route, facts.get(p.variable))),
      ...headerParameters(route),
    ],
    requestBody: inputBody(compiled, schema) ?? (inBody.length ? requestBody(inBody, route, facts) : undefined),
    'x-dependencies': dependencies(compiled, schema),
    responses: {
      [success]: {
        description: successDescription(route),
        headers: responseHeaders(success),
        content: { 'application/json': { schema: componentRef(bodyName) } },
      },
      ...errorResponses([...route.errors, ...COMMON_ERRORS]),
    },
  });
}

/**
 * The contract of one route written out whole, with no reference to a component, from the same declaration as its
 * entry in the OpenAPI document: what an assistant tool's schemas are made from (the tools declare its form).
 */
export function operationContract(compiled: CompiledRoute, schema: GraphQLSchema, baseUrl: string): ToolContract {
  const facts = variableFacts(compiled, schema);
  return {
    parameters: compiled.params.map((p) => parameter(p, compiled.route, facts.get(p.variable))),
    success: responseBodySchema(compiled, schema, null),
    error: errorSchema(baseUrl),
  };
}

/** GET /api/v1/openapi.json itself (§4.14): keyless, under the per-IP limit (§8.4). */
const openApiOperation: OpenAPIV3_1.OperationObject = {
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI document',
  description: 'The machine-readable description of /api/v1. Needs no API key.',
  tags: [META_TAG],
  security: [],
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document.',
      headers: responseHeaders(200),
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { openapi: { type: 'string', const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
            required: ['openapi', 'info', 'paths'],
            additionalProperties: true,
          },
        },
      },
    },
    ...errorResponses(['rate_limit_exceeded']),
  },
};

/**
 * The OpenAPI 3.1 document of /api/v1, built from the compiled route table and the schema the routes run on:
 * parameters from each route's variables, response bodies from its aliased GraphQL selection, errors from the catalogue.
 */
export function buildOpenApiDocument(routes: CompiledRoute[], schema: GraphQLSchema, baseUrl: string): OpenAPIV3_1.Document {
  const components: Record<string, OpenAPIV3_1.SchemaObject> = {};
  const paths: Record<string, Partial<Record<'get' | 'post', OpenAPIV3_1.OperationObject>>> = {};
  for (const compiled of routes) {
    const item = (paths[compiled.route.path] ??= {});
    const method = compiled.route.method === 'POST' ? 'post' : 'get';
    if (item[method]) throw new Error(`OpenAPI: ${compiled.route.method} ${compiled.route.path} is defined twice`);
    item[method] = operation(compiled, schema, components);
  }
  paths['/openapi.json'] = { get: openApiOperation };
  components.Error = errorSchema(baseUrl);
  const tags = [...new Set([...routes.map((r) => r.route.tag), META_TAG])].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? name,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wedding Venue and Vendor Discovery API',
      version: API_VERSION,
      description: INFO_DESCRIPTION,
      contact: { name: 'Developer pages', url: `${baseUrl}/developers` },
      license: { name: 'Proprietary: use under the terms of your API key', url: `${baseUrl}/developers` },
    },
    servers: [{ url: `${baseUrl}/api/v1` }],
    tags,
    security: [{ bearer: [] }, { serviceKey: [] }],
    // openapi-types' 3.1 PathItemObject intersects the 3.0 operation type, which no 3.1 operation satisfies.
    paths: paths as OpenAPIV3_1.PathsObject,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
