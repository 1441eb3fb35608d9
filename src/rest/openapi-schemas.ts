import {
  GraphQLNonNull,
  Kind,
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CompiledRoute } from './adapter.js';
import { GRAPHQL_ONLY_DESCRIPTION, REST_DESCRIPTION } from '../graphql/graphql-only.js';
import { PAGINATION_SOURCES } from './route.js';
import { fragmentsOf } from '../graphql/fragments.js';

export type JsonSchema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/**
 * One walk over a route's document. Response schemas come from the same aliased document the route executes, so a
 * field added to a route's GraphQL document appears in its OpenAPI response with no second list to keep.
 */
interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  /**
   * components.schemas, shared by every route: one entry per distinct (type, selection) shape. Null: every schema is
   * written where it is used, for a reader that takes no references (an assistant tool's schema).
   */
  components: Record<string, OpenAPIV3_1.SchemaObject> | null;
  /** Without components: the schemas that stand where a reference would, treated as one. */
  written?: WeakSet<object>;
  /** Disambiguates a component name when two routes select the same type differently. */
  owner: string;
}

/** Selected fields of one object type, by response key (alias ?? name), merged as GraphQL merges them. */
interface Selected {
  nodes: FieldNode[];
  /** Every occurrence is under @skip/@include, so the key may be absent. */
  conditional: boolean;
}

const SCALARS: Record<string, OpenAPIV3_1.SchemaObject> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  // Meaningful strings (Date, DateTime, URL, UUID) state their own format (src/graphql/scalars.ts, extensions.jsonSchema).
};

export const componentRef = (name: string): OpenAPIV3_1.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** Drops undefined members so the document is exactly what JSON.stringify will serve. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A JSON Schema refinement carried by the GraphQL schema itself (`extensions: { jsonSchema }` on a field or scalar). */
function jsonSchemaExtension(owner: { extensions?: Readonly<Record<string, unknown>> | null }): OpenAPIV3_1.SchemaObject | undefined {
  const value = owner.extensions?.jsonSchema;
  return value && typeof value === 'object' ? (value as OpenAPIV3_1.SchemaObject) : undefined;
}

/** The description REST documents: the GraphQL one, unless it is marked GraphQL-only (src/graphql/graphql-only.ts). */
export function restDescription(owner: { description?: string | null; extensions?: Readonly<Record<string, unknown>> | null }): string | undefined {
  if (owner.extensions?.[GRAPHQL_ONLY_DESCRIPTION] === true) return undefined;
  const rest = owner.extensions?.[REST_DESCRIPTION];
  return typeof rest === 'string' ? rest : (owner.description ?? undefined);
}

const isConditional = (node: { directives?: readonly { name: { value: string } }[] }) =>
  (node.directives ?? []).some((d) => d.name.value === 'skip' || d.name.value === 'include');

function applies(walk: Walk, type: GraphQLObjectType, condition: string | undefined): boolean {
  if (!condition) return true;
  const named = walk.schema.getType(condition);
  return named === type || (!!named && isAbstractType(named) && walk.schema.isSubType(named, type));
}

/** graphql-js's CollectFields for one concrete type, keeping every occurrence so sub-selections merge. */
function collectFields(
  walk: Walk,
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  underCondition = false,
  into = new Map<string, Selected>(),
) {
  const visitSelection = (selection: SelectionNode) => {
    const conditional = underCondition || isConditional(selection);
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const entry = into.get(key);
      if (entry) {
        entry.nodes.push(selection);
        entry.conditional &&= conditional;
      } else {
        into.set(key, { nodes: [selection], conditional });
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(walk, type, selection.typeCondition?.name.value)) collectFields(walk, type, [selection.selectionSet], conditional, into);
    } else {
      const fragment = walk.fragments.get(selection.name.value);
      if (fragment && applies(walk, type, fragment.typeCondition.name.value)) collectFields(walk, type, [fragment.selectionSet], conditional, into);
    }
  };
  for (const set of sets) set.selections.forEach(visitSelection);
  return into;
}

const childSets = (nodes: FieldNode[]) => nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));

function fieldDefinition(type: GraphQLObjectType, selected: Selected): GraphQLField<unknown, unknown> {
  const name = selected.nodes[0].name.value;
  const field = type.getFields()[name];
  if (!field) throw new Error(`OpenAPI: ${type.name} has no field ${name}`);
  return field;
}

/** The schema of one selected field, with its GraphQL description and deprecation. */
function fieldSchema(walk: Walk, parent: GraphQLObjectType, selected: Selected): JsonSchema {
  if (selected.nodes[0].name.value === '__typename') return { type: 'string', const: parent.name };
  const field = fieldDefinition(parent, selected);
  // Any GraphQL error becomes a REST error response, so a field that is null only on error (the semantic non-null
  // proposal, marked `extensions: { semanticNonNull: true }`) is never null in a REST body.
  const type = field.extensions?.semanticNonNull === true && !isNonNullType(field.type) ? new GraphQLNonNull(field.type) : field.type;
  const schema = outputSchema(walk, type, childSets(selected.nodes), jsonSchemaExtension(field));
  const own = restDescription(field);
  const described = field.deprecationReason ? `${own ?? ''} Deprecated: ${field.deprecationReason}`.trim() : own;
  // As a reader resolves a reference with words beside it (OpenAPI 3.1): the field's words, else the component's.
  const description = described ?? (walk.written?.has(schema) ? schema.description : undefined);
  return defined({ ...schema, description, deprecated: field.deprecationReason ? true : undefined });
}

function leafSchema(type: GraphQLNamedType, refinement: OpenAPIV3_1.SchemaObject | undefined): OpenAPIV3_1.SchemaObject {
  if (refinement) return { ...refinement };
  // REST sends an enum's internal value, its wire value (src/rest/enum-values.ts), never its GraphQL name; a closed
  // set states its values in declared order (the printed schema sorts them).
  if (isEnumType(type)) return { ...(jsonSchemaExtension(type) ?? { type: 'string', enum: type.getValues().map((v) => v.value as string) }) };
  // A custom scalar without a refinement (JSON) may hold any value: no type constraint.
  return { ...(SCALARS[type.name] ?? jsonSchemaExtension(type) ?? {}) };
}

/** The non-null branch of a nullable schema (withNull's inverse). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if ('$ref' in schema) return schema;
  if (schema.oneOf) {
    const rest = schema.oneOf.filter((s) => !('type' in s && s.type === 'null'));
    return rest.length === 1 ? { ...rest[0], ...(schema.description ? { description: schema.description } : {}) } : { ...schema, oneOf: rest };
  }
  if (!Array.isArray(schema.type)) return schema;
  const types = schema.type.filter((t) => t !== 'null');
  const result = { ...schema, type: types.length === 1 ? types[0] : types } as OpenAPIV3_1.SchemaObject;
  if (schema.enum) result.enum = schema.enum.filter((v) => v !== null);
  return result;
}

function withNull(walk: Walk, schema: JsonSchema): JsonSchema {
  if ('$ref' in schema || schema.anyOf || walk.written?.has(schema)) return { oneOf: [schema, { type: 'null' }] };
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const nullable = { ...schema, type: [...types, 'null'] } as OpenAPIV3_1.SchemaObject;
  if (schema.enum) nullable.enum = [...schema.enum, null];
  return nullable;
}

function outputSchema(walk: Walk, type: GraphQLOutputType, sets: SelectionSetNode[], refinement?: OpenAPIV3_1.SchemaObject): JsonSchema {
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: outputSchema(walk, inner.ofType, sets, refinement) };
  else if (isScalarType(inner) || isEnumType(inner)) schema = leafSchema(inner, refinement);
  else schema = compositeSchema(walk, inner, sets);
  return nullable ? withNull(walk, schema) : schema;
}

function compositeSchema(walk: Walk, type: GraphQLNamedType, sets: SelectionSetNode[]): JsonSchema {
  if (isObjectType(type)) return register(walk, componentName(walk, type, sets), objectSchema(walk, type, sets));
  if (isAbstractType(type)) {
    const shapes = walk.schema.getPossibleTypes(type).map((t) => compositeSchema(walk, t, sets));
    const unique = [...new Map(shapes.map((s) => [JSON.stringify(s), s])).values()];
    return unique.length === 1 ? unique[0] : { anyOf: unique };
  }
  throw new Error(`OpenAPI: ${type.name} is not an output type`);
}

/** §2: "all fields listed are always present", so every selected key is required unless @skip/@include guards it. */
function objectSchema(walk: Walk, type: GraphQLObjectType, sets: readonly SelectionSetNode[]): OpenAPIV3_1.SchemaObject {
  const selected = collectFields(walk, type, sets);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, entry] of selected) {
    properties[key] = fieldSchema(walk, type, entry);
    if (!entry.conditional) required.push(key);
  }
  return defined({ type: 'object', description: restDescription(type), properties, required });
}

/** A selection that is exactly one fragment spread is named after the fragment (VenueListItem); otherwise after its type. */
function componentName(_walk: Walk, type: GraphQLObjectType, sets: SelectionSetNode[]): string {
  const spreads = sets.map((set) =>
    set.selections.length === 1 && set.selections[0].kind === Kind.FRAGMENT_SPREAD && !isConditional(set.selections[0])
      ? set.selections[0].name.value
      : null,
  );
  const only = spreads[0];
  return only && spreads.every((s) => s === only) ? only : type.name;
}

/** Identical shapes share one component; a different shape under a taken name gets the route's operationId. */
function register(walk: Walk, base: string, schema: OpenAPIV3_1.SchemaObject): JsonSchema {
  if (!walk.components) {
    walk.written!.add(schema);
    return schema;
  }
  const text = JSON.stringify(schema);
  const candidates = [base, `${base}_${walk.owner}`];
  for (let n = 2; ; n += 1) {
    const name = candidates.shift() ?? `${base}_${walk.owner}_${n}`;
    const existing = walk.components[name];
    if (!existing) {
      walk.components[name] = schema;
      return componentRef(name);
    }
    if (JSON.stringify(existing) === text) return componentRef(name);
  }
}

function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('OpenAPI: the route document has no operation');
  return operation;
}

export function operationRootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`OpenAPI: the schema has no ${operation.operation} type`);
  return root;
}

const REQUEST_ID: OpenAPIV3_1.SchemaObject = { type: 'string', description: 'Request identifier; the same value as the X-Request-Id header.' };

/**
 * The route's success body: its root field's schema wrapped in the route's envelope, mirroring `envelope()` in
 * adapter.ts (object → data; cursorPage → data from nodes, pagination from pageInfo/totalCount, extras beside them;
 * spread → the root's fields, optional ones not required; offsetPage/pageNumberPage → pagination from PAGINATION_SOURCES).
 * Long because it mirrors each envelope kind, one case after the other, as envelope() writes them.
 */
export function responseBodySchema(
  compiled: CompiledRoute,
  schema: GraphQLSchema,
  components: Record<string, OpenAPIV3_1.SchemaObject> | null,
): OpenAPIV3_1.SchemaObject {
  const { route } = compiled;
  const operation = operationOf(compiled.document);
  const fragments = fragmentsOf(compiled.document);
  const walk: Walk = { schema, fragments, components, owner: route.operationId, written: components ? undefined : new WeakSet() };
  const rootType = operationRootType(schema, operation);
  const root = collectFields(walk, rootType, [operation.selectionSet]).get(compiled.rootField);
  if (!root) throw new Error(`OpenAPI: ${route.operationId} selects no ${compiled.rootField}`);

  if (route.envelope.kind === 'object') {
    return { type: 'object', properties: { data: fieldSchema(walk, rootType, root), request_id: REQUEST_ID }, required: ['data', 'request_id'] };
  }

  const connection = getNamedType(fieldDefinition(rootType, root).type);
  if (!isObjectType(connection)) throw new Error(`OpenAPI: ${route.operationId} ${route.envelope.kind} root is not an object type`);
  const page = collectFields(walk, connection, childSets(root.nodes));
  if (route.envelope.kind === 'spread') {
    const keys = [...page.keys()];
    // An optional key is left out when null (adapter envelope()), so when present it is never null.
    const optional: string[] = route.envelope.optional ?? [];
    return {
      type: 'object',
      properties: {
        ...Object.fromEntries(
          keys.map((key) => {
            const schema = fieldSchema(walk, connection, page.get(key)!);
            return [key, optional.includes(key) ? withoutNull(schema) : schema];
          }),
        ),
        request_id: REQUEST_ID,
      },
      required: [...keys.filter((key) => !optional.includes(key)), 'request_id'],
    };
  }
  const pick = (fields: Map<string, Selected>, key: string) => {
    const entry = fields.get(key);
    if (!entry) throw new Error(`OpenAPI: ${route.operationId} uses the ${route.envelope.kind} envelope but does not select ${key}`);
    return entry;
  };
  if (route.envelope.kind === 'offsetPage' || route.envelope.kind === 'pageNumberPage') {
    const sources: Record<string, readonly string[]> = PAGINATION_SOURCES[route.envelope.kind];
    /** The schema of the field at `path` below the root field (e.g. page_info.has_next_page). */
    const at = (type: GraphQLObjectType, fields: Map<string, Selected>, path: readonly string[]): JsonSchema => {
      const entry = pick(fields, path[0]);
      if (path.length === 1) return fieldSchema(walk, type, entry);
      const child = getNamedType(fieldDefinition(type, entry).type) as GraphQLObjectType;
      return at(child, collectFields(walk, child, childSets(entry.nodes)), path.slice(1));
    };
    const offset = route.envelope.kind === 'offsetPage';
    const pagination = register(walk, offset ? 'OffsetPagination' : 'PagePagination', {
      type: 'object',
      description: offset
        ? 'Offset-style pagination (§2.14): the next page starts at offset + limit while has_more is true.'
        : 'Page-style pagination (§2.14): pages count from 1; ask for page + 1 while has_more is true.',
      properties: Object.fromEntries(Object.keys(sources).map((key) => [key, at(connection, page, sources[key])])),
      required: Object.keys(sources),
    });
    return {
      type: 'object',
      properties: { data: fieldSchema(walk, connection, pick(page, 'nodes')), pagination, request_id: REQUEST_ID },
      required: ['data', 'pagination', 'request_id'],
    };
  }
  const pageInfoEntry = pick(page, 'page_info');
  const pageInfoType = getNamedType(fieldDefinition(connection, pageInfoEntry).type) as GraphQLObjectType;
  const pageInfo = collectFields(walk, pageInfoType, childSets(pageInfoEntry.nodes));
  const pagination = register(walk, 'CursorPagination', {
    type: 'object',
    description: 'Cursor-style pagination (§2.14).',
    properties: {
      has_more: { ...fieldSchema(walk, pageInfoType, pick(pageInfo, 'has_next_page')), description: 'Whether another page follows.' },
      next_cursor: {
        ...fieldSchema(walk, pageInfoType, pick(pageInfo, 'end_cursor')),
        description:
          'Pass as `cursor` to read the next page; null on the last page. A cursor is bound to the filters (and sort) it was ' +
          'issued for: sent with different ones, or edited, it is refused with 400 invalid_cursor.',
      },
      total_count: fieldSchema(walk, connection, pick(page, 'total_count')),
    },
    required: ['has_more', 'next_cursor', 'total_count'],
  });
  const { extras = [], optional = [], optionalItemKeys } = route.envelope;
  const data = fieldSchema(walk, connection, pick(page, 'nodes'));
  return {
    type: 'object',
    properties: {
      data: optionalItemKeys && 'items' in data && data.items ? { ...data, items: withOptionalMembers(walk, data.items, optionalItemKeys) } : data,
      pagination,
      ...Object.fromEntries(
        extras.map((key) => {
          const schema = fieldSchema(walk, connection, pick(page, key));
          // An optional extra is left out when null, and so are its null members (adapter envelope()).
          return [key, optional.includes(key) ? withOptionalMembers(walk, withoutNull(schema), 'nullable') : schema];
        }),
      ),
      request_id: REQUEST_ID,
    },
    required: ['data', 'pagination', ...extras.filter((key) => !optional.includes(key)), 'request_id'],
  };
}

/**
 * An object schema (or its component) whose `keys` (or every nullable member) are left out of the body when null:
 * not required, and never null when present. A component is changed where it is: the selections that name these
 * members (a search's distance, its facets) are this route's own.
 */
function withOptionalMembers(walk: Walk, schema: JsonSchema, keys: readonly string[] | 'nullable'): JsonSchema {
  const ref = '$ref' in schema ? schema.$ref : undefined;
  const name = ref?.split('/').at(-1);
  const object = (name ? walk.components![name] : schema) as OpenAPIV3_1.SchemaObject;
  const properties = { ...object.properties } as Record<string, JsonSchema>;
  const nullable = (s: JsonSchema) =>
    (Array.isArray((s as OpenAPIV3_1.SchemaObject).type) && ((s as OpenAPIV3_1.SchemaObject).type as string[]).includes('null')) ||
    !!(s as OpenAPIV3_1.SchemaObject).oneOf?.some((o) => 'type' in o && o.type === 'null');
  const left = new Set(keys === 'nullable' ? Object.keys(properties).filter((key) => nullable(properties[key])) : keys);
  for (const key of left) if (properties[key]) properties[key] = withoutNull(properties[key]);
  const compact = { ...object, properties, required: (object.required ?? []).filter((key) => !left.has(key)) };
  if (!name) return compact;
  walk.components![name] = compact;
  return schema;
}
