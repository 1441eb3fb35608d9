import { getNamedType, isObjectType, type GraphQLField, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { assertServes, type PlannedRead } from '../db/relation-shape.js';

/**
 * A plugin-prisma type whose rows a driver read builds from the query plan (venue-rows.ts) or answers with a fixed row
 * (the vendor detail) instead of Prisma's client. Such a read writes only the columns and relation shapes it knows,
 * so each field's part of any plan is checked against it as the schema is built (checkPlannedReads): a field selecting
 * something the read cannot serve stops the server starting, not a user's request.
 */
const PLANNED_READ = 'plannedRead';

/** Spread into a prismaObject's `extensions`: the driver read its plans must fit. */
export const readBy = (read: PlannedRead) => ({ [PLANNED_READ]: read });

type Selection = Record<string, unknown>;
type NestedQuery = (query?: Selection) => Selection;
type FieldSelect = Selection | ((args: object, context: object, nested: NestedQuery) => { select?: Selection } | null);

/**
 * What `field` adds to its parent's plan, as plugin-prisma plans it (its `pothosPrismaSelect` extension): a relation's
 * query with everything its type's fields select beneath. Planned without arguments: a select that depends on its
 * field's arguments is checked only as it is without them.
 */
function fieldSelection(field: GraphQLField<unknown, unknown>, seen: ReadonlySet<string>): Selection {
  const planned = field.extensions?.pothosPrismaSelect as FieldSelect | false | undefined;
  if (!planned) return {};
  if (typeof planned !== 'function') return planned;
  const nested: NestedQuery = (query = {}) => ({ ...query, ...typeQuery(getNamedType(field.type), seen) });
  const result = planned({}, {}, nested);
  if (result && 'then' in result) throw new Error(`${field.name}: a select that awaits cannot be checked when the schema is built`);
  return result?.select ?? {};
}

/** The select (select mode) or include (include mode) of a type planned with every one of its fields. */
function typeQuery(type: GraphQLNamedType, seen: ReadonlySet<string>): Selection {
  if (!isObjectType(type) || seen.has(type.name)) return {};
  const own = type.extensions?.pothosPrismaTypeSelection as { select?: Selection } | undefined;
  const within = new Set([...seen, type.name]);
  const fields = Object.values(type.getFields()).map((field) => fieldSelection(field, within));
  const merged = Object.assign({}, own?.select, ...fields) as Selection;
  if (own?.select) return { select: merged };
  return Object.keys(merged).length ? { include: merged } : {};
}

/** Checks every field of every type marked `readBy` against its read; throws on the first it cannot serve. */
export function checkPlannedReads(schema: GraphQLSchema): number {
  let checked = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    const read = type.extensions?.[PLANNED_READ] as PlannedRead | undefined;
    if (!read || !isObjectType(type)) continue;
    const own = type.extensions?.pothosPrismaTypeSelection as { select?: Selection } | undefined;
    assertServes(read, own?.select ?? {}, type.name);
    for (const field of Object.values(type.getFields())) {
      assertServes(read, fieldSelection(field, new Set([type.name])), `${type.name}.${field.name}`);
      checked++;
    }
  }
  return checked;
}
