import type { OpenAPIV3_1 } from 'openapi-types';
import type { AssistantTool } from './mcp.tools.js';

/**
 * What a tool's schemas are made from: its route's contract written out whole, with no reference to a component (the
 * REST surface's `operationContract`, src/rest/openapi.ts, gives it; the composition root hands it over).
 */
export interface ToolContract {
  /** The route's query and path parameters. */
  parameters: OpenAPIV3_1.ParameterObject[];
  /** Its success body. */
  success: OpenAPIV3_1.SchemaObject;
  /** The §7 error envelope. */
  error: OpenAPIV3_1.SchemaObject;
}

export type JsonObjectSchema = { type: 'object'; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };

/** Keywords that describe a value whichever branch of a nullable union it takes: they stay beside the union. */
const ANNOTATIONS = ['title', 'description', 'deprecated'] as const;

/**
 * A schema with every nullable written as `anyOf: [schema, { type: 'null' }]`. The OpenAPI document writes a nullable
 * scalar as `type: ['string', 'null']` (JSON Schema 2020-12, what OpenAPI 3.1 clients read) and a nullable object as
 * `oneOf` with null; MCP clients that check tool schemas strictly (the Inspector's --strict, VS Code) take only the
 * anyOf form, which the MCP SDKs' own zod-made schemas use. Same values either way.
 */
export function withNullableAnyOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...source };
  const each = (record: unknown) =>
    Object.fromEntries(Object.entries(record as Record<string, unknown>).map(([key, value]) => [key, withNullableAnyOf(value)]));
  if (source.properties) out.properties = each(source.properties);
  if (source.items) out.items = withNullableAnyOf(source.items);
  if (source.additionalProperties && typeof source.additionalProperties === 'object')
    out.additionalProperties = withNullableAnyOf(source.additionalProperties);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(source[key])) out[key] = (source[key] as unknown[]).map(withNullableAnyOf);
  const oneOf = out.oneOf as Array<Record<string, unknown>> | undefined;
  if (oneOf?.length === 2 && oneOf.some((branch) => branch.type === 'null')) {
    const { oneOf: branches, ...rest } = out;
    return { ...rest, anyOf: branches };
  }
  if (!Array.isArray(source.type) || !source.type.includes('null')) return out;
  const types = (source.type as string[]).filter((type) => type !== 'null');
  const branch: Record<string, unknown> = { ...out, type: types.length === 1 ? types[0] : types };
  if (Array.isArray(branch.enum)) branch.enum = branch.enum.filter((value) => value !== null);
  const annotations: Record<string, unknown> = {};
  for (const key of ANNOTATIONS) {
    if (key in branch) annotations[key] = branch[key];
    delete branch[key];
  }
  return { anyOf: [branch, { type: 'null' }], ...annotations };
}

/**
 * A tool's input and output JSON Schemas, from its route's contract (src/rest/openapi.ts `operationContract`): the
 * declaration the OpenAPI document is made from, written out whole (tool schemas must stand alone), never kept by
 * hand. Inputs are the route's query and path parameters (the spec's snake_case names); the output is its 200 body.
 */
export function toolSchemas(
  contract: ToolContract,
  tool: AssistantTool,
): { inputSchema: JsonObjectSchema; outputSchema: JsonObjectSchema; pathParams: string[] } {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  for (const parameter of contract.parameters) {
    const schema = { ...(parameter.schema as object), ...(parameter.description ? { description: parameter.description } : {}) } as Record<
      string,
      unknown
    >;
    if (parameter.name === 'limit' && tool.limit) Object.assign(schema, { maximum: tool.limit.max, default: tool.limit.default });
    if (parameter.in === 'path') pathParams.push(parameter.name);
    if (parameter.in === 'path')
      schema.description = `${parameter.description ?? parameter.name} Exactly as returned by search (slashes included, not encoded).`;
    properties[parameter.name] = schema;
    if (parameter.required) required.push(parameter.name);
  }
  const success = withNullableAnyOf(contract.success) as JsonObjectSchema;
  // A tool error's structured part is the §7 envelope (plus retry_after): the schema admits both, so clients that
  // validate structured results (the SDK's Client does, after tools/list) accept errors too.
  const envelope = withNullableAnyOf(contract.error) as JsonObjectSchema;
  const error = { ...envelope, properties: { ...envelope.properties, error: withRetryAfter(envelope.properties?.error as JsonObjectSchema) } };
  const outputSchema: JsonObjectSchema = { type: 'object', anyOf: [success, error] };
  return {
    // Inputs have no nullable today (an omitted parameter is what null would mean); written the strict way if one comes.
    inputSchema: withNullableAnyOf({
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
      additionalProperties: false,
    }) as JsonObjectSchema,
    outputSchema,
    pathParams,
  };
}

/** The §7 error object, plus the seconds to wait when a budget refused the call. */
function withRetryAfter(error: JsonObjectSchema): JsonObjectSchema {
  return {
    ...error,
    properties: {
      ...error.properties,
      retry_after: { type: 'integer', minimum: 1, description: 'Seconds to wait before a retry can pass (rate limits).' },
    },
  };
}
