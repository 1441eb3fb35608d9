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
import { fragmentsOf } from '../graphql/fragments.js';

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
  const fragments = fragmentsOf(document);
  return { fields, fragments };
}

/** Where enum names sit in a route's result: only the keys with an enum at or below them. */
interface Plan {
  enumType?: GraphQLEnumType;
  children?: Map<string, Plan>;
}

/** Plans per root selection set: each route's document is planned once, on its first answer. */
const plans = new WeakMap<SelectionSetNode, Map<string, Plan> | null>();

function planOf(sets: readonly SelectionSetNode[], outputs: EnumOutputs): Map<string, Plan> | null {
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
  const plan = new Map<string, Plan>();
  for (const [key, nodes] of byKey) {
    const enumType = nodes.map((node) => outputs.fields.get(node)).find(Boolean);
    if (enumType) {
      plan.set(key, { enumType });
      continue;
    }
    const children = planOf(
      nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : [])),
      outputs,
    );
    if (children) plan.set(key, { children });
  }
  return plan.size ? plan : null;
}

/**
 * An executed result with every enum name replaced by its wire value; `sets` are the selections that produced `data`.
 * Only the keys the plan names are visited, and the result (fresh from execution, owned by the caller) is changed in
 * place: a page of venues is not copied to change three fields of each.
 */
export function withWireValues(data: unknown, sets: readonly SelectionSetNode[], outputs: EnumOutputs): unknown {
  let plan = plans.get(sets[0]);
  if (plan === undefined) {
    plan = planOf(sets, outputs);
    if (sets.length === 1) plans.set(sets[0], plan);
  }
  return plan ? applyPlan(data, plan) : data;
}

function applyPlan(data: unknown, plan: Map<string, Plan>): unknown {
  if (Array.isArray(data)) {
    for (const item of data) applyPlan(item, plan);
    return data;
  }
  if (!data || typeof data !== 'object') return data;
  const object = data as Record<string, unknown>;
  for (const [key, step] of plan) {
    if (!(key in object)) continue;
    if (step.enumType) object[key] = wireValue(object[key], step.enumType);
    else if (step.children) applyPlan(object[key], step.children);
  }
  return data;
}

/** A leaf (or a list of leaves, nested or not): names of the enum become their values; anything else is left as is. */
function wireValue(value: unknown, enumType: GraphQLEnumType): unknown {
  if (Array.isArray(value)) return value.map((item) => wireValue(item, enumType));
  return typeof value === 'string' ? (enumType.getValue(value)?.value ?? value) : value;
}
