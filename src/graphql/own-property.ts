import { isObjectType, type GraphQLSchema } from 'graphql';

/**
 * Fields that are their parent's property of the same name, read without a resolver.
 *
 * graphql-jit compiles a field without a resolver into a plain property read in the document's function, but calls a
 * field with one, even `(v) => v.name`, through a resolve info and a response path built for that row and field. A
 * 20-venue page called hundreds of them, a large part of what it allocated and of its CPU (docs/performance.md,
 * Levers). On a plain object type Pothos's own `t.expose` builds such a field without a
 * resolver, and is what to use there. On a plugin-prisma type in select mode (Venue, Vendor) it cannot be: there
 * `expose` gives each field a select of its own and a per-row plan lookup, which cost more (venues.graphql.ts,
 * LIST_COLUMNS). This is for those.
 *
 * `ownProperty('name')` is a typed resolver like `(v) => v.name`, so the row type still checks the property and its
 * type. Once the schema is built, `readOwnPropertiesInline` removes the resolver of every field that is exactly
 * `ownProperty(<its own name>)`: graphql-js's default resolver and graphql-jit's inline read then give the same value.
 * A resolver a plugin wrapped is a different function and stays; so does `ownProperty` of another name.
 *
 * `...fromPlannedRow({ description })` (or `...fromPlannedRow(graphqlOnly(…))`), spread into a field's options, is for
 * the other case: a plugin-prisma field whose `select` must reach the query plan (so the read fetches its column only
 * when a query asks for it) but whose rows are always read with that plan, so the plugin's per-row wrapper (find the
 * row's plan, else load the field again) has nothing to do. A venue's photos and testimonials are such fields: they
 * come as JSON in the venue's own row, built from the plan (venue-rows.ts). On graphql-jit the wrapper of a field
 * beneath a relation could not even find its plan (the plugin scopes it by the identity of graphql-js's response path
 * objects) and loaded the rows a second time.
 */
const FROM_PLANNED_ROW = 'readFromPlannedRow';

export function fromPlannedRow(described: { description: string; extensions?: Record<string, unknown> }) {
  return { description: described.description, extensions: { ...described.extensions, [FROM_PLANNED_ROW]: true } };
}

const ownPropertyNames = new WeakMap<object, string>();

export function ownProperty<K extends string>(key: K): <Parent extends { [P in K]: unknown }>(parent: Parent) => Parent[K] {
  const read = <Parent extends { [P in K]: unknown }>(parent: Parent): Parent[K] => parent[key];
  ownPropertyNames.set(read, key);
  return read;
}

/**
 * Removes the resolvers `ownProperty` gave fields of their own name, and those of fields built `fromPlannedRow`;
 * returns how many. Run once on the built schema.
 */
export function readOwnPropertiesInline(schema: GraphQLSchema): number {
  let removed = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const planned = field.extensions?.[FROM_PLANNED_ROW] === true;
      if (field.resolve && (planned || ownPropertyNames.get(field.resolve) === field.name)) {
        field.resolve = undefined;
        removed++;
      }
    }
  }
  return removed;
}
