import {
  Kind,
  TypeInfo,
  getNamedType,
  isEnumType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/**
 * GraphQL serialises an enum as its name (PER_STAY); REST answers with the wire value, which is the enum value's
 * internal value (src/graphql/closed-set.ts). Found once per route: the enum-typed fields of its document.
 */
export interface EnumOutputs {
  fields: Map<FieldNode, GraphQLEnumType>;
  fragments: Map<string, FragmentDefinitionNode>;
}

/** The route document's enum-typed output fields, or null when it has none (nothing to map per request). */
export function enumOutputsOf(document: DocumentNode, schema: GraphQLSchema): EnumOutputs | null {
  const fields = new Map<FieldNode, GraphQLEnumType>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const type = typeInfo.getType();
        const named = type ? getNamedType(type) : undefined;
        if (named && isEnumType(named)) fields.set(node, named);
      },
    }),
  );
  if (!fields.size) return null;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  return { fields, fragments };
}

/** An executed result with every enum name replaced by its wire value; `sets` are the selections that produced `data`. */
export function withWireValues(data: unknown, sets: readonly SelectionSetNode[], outputs: EnumOutputs): unknown {
  if (Array.isArray(data)) return data.map((item) => withWireValues(item, sets, outputs));
  if (!data || typeof data !== 'object') return data;
  // Each response key once, with every field node that answers it (a key may be selected directly and in fragments).
  const byKey = new Map<string, FieldNode[]>();
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = outputs.fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else {
        const key = selection.alias?.value ?? selection.name.value;
        byKey.set(key, [...(byKey.get(key) ?? []), selection]);
      }
    }
  };
  sets.forEach(collect);
  const object = { ...(data as Record<string, unknown>) };
  for (const [key, nodes] of byKey) {
    if (!(key in object)) continue;
    const enumType = nodes.map((node) => outputs.fields.get(node)).find(Boolean);
    const children = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    if (enumType) object[key] = wireValue(object[key], enumType);
    else if (children.length) object[key] = withWireValues(object[key], children, outputs);
  }
  return object;
}

/** A leaf (or a list of leaves, nested or not): names of the enum become their values; anything else is left as is. */
function wireValue(value: unknown, enumType: GraphQLEnumType): unknown {
  if (Array.isArray(value)) return value.map((item) => wireValue(item, enumType));
  return typeof value === 'string' ? (enumType.getValue(value)?.value ?? value) : value;
}
