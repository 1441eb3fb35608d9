import { isDeepStrictEqual } from 'node:util';

/**
 * The order and number of related rows a read shows (a venue's photos: 5 by position), in Prisma's `orderBy`/`take`
 * vocabulary. Each is declared once (src/venues/venue-relations.ts): the GraphQL field's `query`, the Prisma read
 * tests compare with, and the SQL a driver read writes here. Only these two keys: a `where` or `skip` the SQL left
 * out would be a shape the field declares and the read ignores.
 */
export interface RelationShape {
  orderBy?: unknown;
  take?: number;
}

/** A related model as a driver read names it: its table (the Prisma model name) and its scalar columns. */
export interface RelatedModel {
  name: string;
  columns: ReadonlySet<string>;
}

/**
 * PostgreSQL folds an unquoted name to lower case, so a lower-case name is written bare (as the hand-written SQL had
 * it), a camelCase one quoted. A lower-case column named like a reserved word (order, user) would need quotes too.
 */
const BARE = /^[a-z_][a-z0-9_]*$/;
const NULLS = [undefined, 'first', 'last'];

function orderTermSql(term: unknown, model: RelatedModel, alias: string | undefined): string {
  const entries = term !== null && typeof term === 'object' ? Object.entries(term) : [];
  const [column, order] = entries[0] ?? [];
  const { sort, nulls, ...other } = (typeof order === 'string' ? { sort: order } : (order ?? {})) as Record<string, unknown>;
  if (
    entries.length !== 1 ||
    !model.columns.has(column) ||
    (sort !== 'asc' && sort !== 'desc') ||
    !NULLS.includes(nulls as string) ||
    Object.keys(other).length
  ) {
    throw new Error(
      `Cannot write ${model.name} orderBy ${JSON.stringify(term)} as SQL: one column of the model per term, asc/desc or { sort, nulls }`,
    );
  }
  const name = BARE.test(column) ? column : `"${column}"`;
  return `${alias ? `${alias}.` : ''}${name}${sort === 'desc' ? ' DESC' : ''}${nulls ? ` NULLS ${String(nulls).toUpperCase()}` : ''}`;
}

/**
 * The shape's `orderBy` as an SQL ORDER BY list over `alias` (unqualified without one). Any form it cannot write (a
 * relation's column, `_count`, two columns in one term) throws: it is called as a module loads, so such a change stops
 * the server starting instead of failing requests.
 */
export function orderBySql(shape: RelationShape, model: RelatedModel, alias?: string): string {
  const terms: unknown[] = Array.isArray(shape.orderBy) ? shape.orderBy : [shape.orderBy];
  if (terms.length === 0) throw new Error(`Cannot write ${model.name} orderBy []: related rows need an order`);
  return terms.map((term) => orderTermSql(term, model, alias)).join(', ');
}

/**
 * The FROM clause of a parent's related rows as `alias`: with a `take`, a subquery ordered and limited by the shape
 * (json_agg does not keep its input's order, so the caller orders again); without, the table itself.
 */
export function relatedRowsSql(shape: RelationShape, model: RelatedModel, alias: string, link: { foreignKey: string; parent: string }): string {
  const { orderBy: _orderBy, take, ...other } = shape;
  if (Object.keys(other).length || (take !== undefined && !(Number.isInteger(take) && take > 0))) {
    throw new Error(`Cannot write a ${model.name} shape ${JSON.stringify(shape)} as SQL: orderBy and a positive take only`);
  }
  // Written even when unused here, so a shape whose order cannot be written throws whichever form it takes.
  const order = orderBySql(shape, model);
  if (take === undefined) return `"${model.name}" ${alias} WHERE ${alias}."${link.foreignKey}" = ${link.parent}`;
  return `(SELECT * FROM "${model.name}" WHERE "${link.foreignKey}" = ${link.parent} ORDER BY ${order} LIMIT ${take}) ${alias}`;
}

/** What a driver read of a model serves of a plugin-prisma plan: its columns, and its relations in their shapes. */
export interface PlannedRead {
  /** In messages: 'venue read'. */
  name: string;
  columns: { has(name: string): boolean };
  relations: ReadonlyMap<string, { shape: RelationShape; model: RelatedModel }>;
}

/**
 * Throws unless `read` serves `selection` (a plan's select, or one field's part of it): each name is a column or a
 * relation whose query is its declared shape (the SQL was written from the shape, not from the query) and whose
 * related rows are selected by their columns alone. `where` names the field in the message.
 */
export function assertServes(read: PlannedRead, selection: Record<string, unknown>, where: string): void {
  for (const [name, value] of Object.entries(selection)) {
    if (!value || read.columns.has(name)) continue;
    const relation = read.relations.get(name);
    if (!relation) throw new Error(`${where}: a ${read.name} cannot select '${name}'`);
    const { select, include, ...query } = (value === true ? {} : value) as Record<string, unknown>;
    if (!isDeepStrictEqual(query, relation.shape)) {
      throw new Error(`${where}: a ${read.name} reads ${name} as ${JSON.stringify(relation.shape)}, not ${JSON.stringify(query)}`);
    }
    const nested = Object.entries({ ...(include as object), ...(select as object) }).filter(([, selected]) => selected);
    for (const [column] of nested) {
      if (!relation.model.columns.has(column)) throw new Error(`${where}: a ${read.name} cannot select '${column}' of ${relation.model.name}`);
    }
  }
}
