import { describe, expect, it } from 'vitest';
import { execute, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { fromPlannedRow, ownProperty, readOwnPropertiesInline } from '../../src/graphql/own-property.js';
import { graphqlOnly, GRAPHQL_ONLY_DESCRIPTION } from '../../src/graphql/graphql-only.js';
import { getSchema } from '../../src/graphql/schema.js';

// A field that is its row's property of the same name is built without a resolver, so graphql-jit reads it inline
// instead of calling a resolver with a resolve info per row (src/graphql/own-property.ts).

function rowSchema() {
  const wrapped = ownProperty('name');
  const Row = new GraphQLObjectType<{ name: string; city: string }>({
    name: 'Row',
    fields: {
      name: { type: GraphQLString, resolve: ownProperty('name') },
      // ownProperty of another property: a resolver that stays (the default resolver would read `town`).
      town: { type: GraphQLString, resolve: ownProperty('city') },
      // What a plugin's wrapping looks like: another function around the property read. It stays.
      wrappedName: { type: GraphQLString, resolve: (row) => wrapped(row) },
      shout: { type: GraphQLString, resolve: (row) => row.name.toUpperCase() },
      // A plugin-wrapped read of a row always loaded with its plan, marked so: the wrapper goes, the other marks stay.
      city: { type: GraphQLString, resolve: (row) => row.city, ...fromPlannedRow(graphqlOnly('The city.')) },
    },
  });
  const Query = new GraphQLObjectType({
    name: 'Query',
    fields: { rows: { type: new GraphQLObjectType({ name: 'Rows', fields: { nodes: { type: Row } } }), resolve: () => ({ nodes: row }) } },
  });
  const row = { name: 'Ca’ Marcello', city: 'Venice' };
  return new GraphQLSchema({ query: Query });
}

describe('ownProperty fields', () => {
  it('lose their resolver only when they read their own name, and answer the same on graphql-js and graphql-jit', async () => {
    const schema = rowSchema();
    expect(readOwnPropertiesInline(schema)).toBe(2);
    const fields = (schema.getType('Row') as GraphQLObjectType).getFields();
    expect(fields.name.resolve).toBeUndefined();
    expect(fields.city.resolve).toBeUndefined();
    expect(fields.city.extensions).toMatchObject({ [GRAPHQL_ONLY_DESCRIPTION]: true });
    expect(fields.town.resolve).toBeTypeOf('function');
    expect(fields.wrappedName.resolve).toBeTypeOf('function');
    expect(fields.shout.resolve).toBeTypeOf('function');

    const document = parse('{ rows { nodes { name town wrappedName shout city } } }');
    const expected = {
      data: { rows: { nodes: { name: 'Ca’ Marcello', town: 'Venice', wrappedName: 'Ca’ Marcello', shout: 'CA’ MARCELLO', city: 'Venice' } } },
    };
    expect(await execute({ schema, document })).toEqual(expected);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit refused the document');
    expect(await compiled.query(undefined, {}, {})).toEqual(expected);
  });

  it("in the API schema: the list columns of venues and vendors, a venue's photos and testimonials and the pricing answers read inline; computed and planned fields keep theirs", () => {
    const schema = getSchema();
    const resolverOf = (type: string, field: string) => (schema.getType(type) as GraphQLObjectType).getFields()[field].resolve;
    for (const field of ['slug', 'name', 'city', 'state', 'capacityMax', 'bedrooms', 'heroImage', 'amenities', 'seoDescription'])
      expect(resolverOf('Venue', field), `Venue.${field}`).toBeUndefined();
    for (const field of ['slug', 'businessName', 'serviceCategory', 'primaryState', 'startingPrice', 'priceUnit', 'featuredImageUrl'])
      expect(resolverOf('Vendor', field), `Vendor.${field}`).toBeUndefined();
    for (const [type, field] of [
      ['PricingResult', 'savingsVsTraditional'],
      ['PricingResult', 'parameters'],
      ['RegionalCostRange', 'range'],
      ['RateLimitStatus', 'perMinute'],
    ])
      expect(resolverOf(type, field), `${type}.${field}`).toBeUndefined();
    // A venue's photos and testimonials, and their fields, come in the venue's row read with the plan: read inline too.
    for (const [type, field] of [
      ['Venue', 'photos'],
      ['Venue', 'testimonials'],
      ['VenuePhoto', 'url'],
      ['VenuePhoto', 'position'],
      ['Testimonial', 'review'],
      ['Testimonial', 'eventDate'],
    ])
      expect(resolverOf(type, field), `${type}.${field}`).toBeUndefined();
    // Computed from the row or the request, or loaded by plugin-prisma's plan (a select of their own): resolvers stay.
    for (const field of ['url', 'pricing', 'priceRange', 'description']) expect(resolverOf('Venue', field), `Venue.${field}`).toBeTypeOf('function');
  });
});
