import { getDatamodel } from '../generated/pothos-types.js';

/** The Prisma scalar types a tagged column may have: each maps to a GraphQL type as it is. */
const GRAPHQL_TYPES = { String: 'String', Int: 'Int', Float: 'Float', Boolean: 'Boolean', DateTime: 'DateTime' } as const;

/** A column schema.prisma shows through the API by a tag in its documentation (`/// @detail Guests it sleeps.`). */
export interface TaggedColumn {
  /** The Prisma field name, also the GraphQL field's (REST's is its snake_case). */
  name: string;
  type: (typeof GRAPHQL_TYPES)[keyof typeof GRAPHQL_TYPES];
  list: boolean;
  nullable: boolean;
  /** The documentation after the tag: the field's description on every surface. */
  description: string;
}

/** The tags a column's documentation may begin with; anything else beginning with `@` is refused. */
const TAGS = ['detail'] as const;
type Tag = (typeof TAGS)[number];

let datamodel: ReturnType<typeof getDatamodel> | undefined;

/** The Prisma model as the Pothos generator wrote it, parsed once for the builder and the tagged columns alike. */
export function prismaDatamodel(): ReturnType<typeof getDatamodel> {
  return (datamodel ??= getDatamodel());
}

const TAGGED = /^@([a-z]+)\s+(\S[\s\S]*)$/;

/**
 * The scalar columns of `model` whose documentation in prisma/schema.prisma begins with `@<tag>`, in the model's
 * order. A column is declared there once, meaning and all, and a module shows each such column without naming it
 * again (Venue's detail fields: a new one is its column and its migration). Anything a tag cannot serve (a relation,
 * a type without a GraphQL twin, an empty description, an unknown tag) throws as the schema is built, not at request.
 */
export function taggedColumns(model: string, tag: Tag): TaggedColumn[] {
  const fields = prismaDatamodel().datamodel.models[model]?.fields;
  if (!fields) throw new Error(`No model ${model} in the Prisma schema`);
  return columnsTagged(model, fields, tag);
}

/** A model's field as the Pothos generator writes it, with its documentation (`documentation = "true"`). */
export interface ModelField {
  name: string;
  kind: string;
  type: string;
  isList: boolean;
  isRequired: boolean;
  documentation?: string;
}

/** taggedColumns over the fields given. */
export function columnsTagged(model: string, fields: readonly ModelField[], tag: Tag): TaggedColumn[] {
  const columns: TaggedColumn[] = [];
  for (const field of fields) {
    const documentation = field.documentation?.trim();
    if (!documentation?.startsWith('@')) continue;
    const [, found, description] = TAGGED.exec(documentation) ?? [];
    const where = `${model}.${field.name}`;
    if (!TAGS.includes(found as Tag)) throw new Error(`${where}: documentation beginning with @ must be @${TAGS.join(' or @')} and a description`);
    if (found !== tag) continue;
    const type = GRAPHQL_TYPES[field.type as keyof typeof GRAPHQL_TYPES];
    if (field.kind !== 'scalar' || !type) throw new Error(`${where}: a @${tag} column must be a String, Int, Float, Boolean or DateTime`);
    columns.push({ name: field.name, type, list: field.isList, nullable: !field.isRequired, description: description.replace(/\s+/g, ' ') });
  }
  return columns;
}
