// Every field of Venue and Vendor (and of the types beneath them) through the production entry, in search and in
// detail, all at once and each alone: plans differ by selection, and a selection the data layer cannot serve must fail
// here or at schema build (src/graphql/planned-reads.ts), not in a user's request. The schema walked is the one the
// app introspects, so a field added later is walked without editing this file.
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let schema: GraphQLSchema;
/** A venue with photos and testimonials, a vendor with photos: the relations have rows to show. */
let slugs: { Venue: string; Vendor: string };

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.graphql(getIntrospectionQuery());
  expect(res.body.errors, res.text).toBeUndefined();
  schema = buildClientSchema(res.body.data as IntrospectionQuery);
  const venue = await t.db.prisma.venue.findFirstOrThrow({
    where: { published: true, photos: { some: {} }, testimonials: { some: {} } },
    orderBy: { slug: 'asc' },
  });
  const vendor = await t.db.prisma.vendor.findFirstOrThrow({ where: { active: true, photos: { some: {} } }, orderBy: { slug: 'asc' } });
  slugs = { Venue: venue.slug, Vendor: vendor.slug };
});
afterAll(() => t.close());

const objectType = (name: string) => {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type`);
  return type;
};

/** Fields a query can select without inventing arguments: those with no required argument. */
const selectable = (type: GraphQLObjectType) =>
  Object.values(type.getFields()).filter((field) => field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined));

/** The selection set of every field beneath `type`: scalars as they are, objects with theirs; a type once per path. */
function everyField(type: GraphQLOutputType, path: readonly string[] = []): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named) || path.includes(named.name)) return '{ __typename }';
  return `{ ${selectable(named)
    .map((field) => `${field.name} ${everyField(field.type, [...path, named.name])}`)
    .join(' ')} }`;
}

/** No non-null field of the answer is null, however deep (graphql-js would have nulled its parent with an error). */
function expectComplete(value: unknown, type: GraphQLOutputType, where: string): void {
  if (isNonNullType(type)) {
    expect(value ?? null, where).not.toBeNull();
    return expectComplete(value, type.ofType, where);
  }
  if (value === null || value === undefined) return;
  if (isListType(type)) return (value as unknown[]).forEach((item, i) => expectComplete(item, type.ofType, `${where}[${i}]`));
  if (!isObjectType(type)) return;
  for (const [name, field] of Object.entries(type.getFields())) {
    if (name in (value as object)) expectComplete((value as Record<string, unknown>)[name], field.type, `${where}.${name}`);
  }
}

const SEARCH = { Venue: 'venues(first: 3)', Vendor: 'vendors(first: 3)' } as const;
const DETAIL = { Venue: 'venue(slug: $slug)', Vendor: 'vendor(slug: $slug)' } as const;
type Model = keyof typeof SEARCH;

/**
 * The search's first nodes and the detail for `selection` of `model`. Each document runs twice, so graphql-js answers
 * it and then the compiled form (/graphql compiles a document on its second run); both answers must be the same.
 */
async function read(model: Model, selection: string): Promise<{ nodes: Record<string, unknown>[]; detail: Record<string, unknown> }> {
  const documents = {
    nodes: `{ page: ${SEARCH[model]} { nodes ${selection} } }`,
    detail: `query($slug: String!) { one: ${DETAIL[model]} ${selection} }`,
  };
  const answers: unknown[] = [];
  for (const [kind, document] of Object.entries(documents)) {
    const runs = [];
    for (let run = 0; run < 2; run++) {
      const res = await t.graphql(document, kind === 'detail' ? { slug: slugs[model] } : {});
      expect(res.status, res.text).toBe(200);
      expect(res.body.errors, `${document}\n${res.text}`).toBeUndefined();
      runs.push(res.body.data);
    }
    expect(runs[1], `${document}: compiled`).toEqual(runs[0]);
    answers.push(runs[0]);
  }
  const [search, detail] = answers as [{ page: { nodes: Record<string, unknown>[] } }, { one: Record<string, unknown> }];
  expect(search.page.nodes.length, documents.nodes).toBeGreaterThan(0);
  expect(detail.one, documents.detail).not.toBeNull();
  return { nodes: search.page.nodes, detail: detail.one };
}

/** A field alone (with every field beneath it), then each field of an object it returns alone, as selections. */
function aloneSelections(type: GraphQLObjectType): Array<{ path: string[]; selection: string }> {
  return selectable(type).flatMap((field) => {
    const named = getNamedType(field.type);
    const one = { path: [field.name], selection: `{ ${field.name} ${everyField(field.type, [type.name])} }` };
    if (!isObjectType(named)) return [one];
    const beneath = selectable(named).map((sub) => ({
      path: [field.name, sub.name],
      selection: `{ ${field.name} { ${sub.name} ${everyField(sub.type, [type.name, named.name])} } }`,
    }));
    return [one, ...beneath];
  });
}

/** `value` cut down to `path` (through lists and nulls), as a document selecting only that path answers. */
function picked(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => picked(item, path));
  const [name, ...rest] = path;
  return { [name]: picked((value as Record<string, unknown>)[name], rest) };
}

describe.each(['Venue', 'Vendor'] as const)('every field of %s', (model) => {
  let whole: Awaited<ReturnType<typeof read>>;

  it('answers a search and a detail selecting every field, with every non-null field set', async () => {
    const type = objectType(model);
    // A field with a required argument needs a sample value here before it can be walked.
    expect(selectable(type).map((field) => field.name)).toEqual(Object.keys(type.getFields()));
    whole = await read(model, everyField(type));
    whole.nodes.forEach((node, i) => expectComplete(node, type, `${model} search[${i}]`));
    expectComplete(whole.detail, type, `${model} detail`);
    // The relations have rows here, so their fields were read, not only planned.
    const photos = whole.detail.photos as unknown[];
    expect(photos.length).toBeGreaterThan(0);
    if (model === 'Venue') expect((whole.detail.testimonials as unknown[]).length).toBeGreaterThan(0);
  });

  it('answers each field alone, and each field of an object beneath it alone, as it answers them among all the others', async () => {
    const type = objectType(model);
    for (const { path, selection } of aloneSelections(type)) {
      const alone = await read(model, selection);
      const where = `${model}.${path.join('.')} alone`;
      expect(alone.nodes, where).toEqual(whole.nodes.map((node) => picked(node, path)));
      expect(alone.detail, where).toEqual(picked(whole.detail, path));
    }
  });
});
