// Every field (and input type) that carries the JSON Schema of its parser (src/graphql/input-schema.ts) names exactly
// its arguments (fields) in it: an argument added without its bound, or a bound left behind, fails here.
import { isInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.js';
import { inputSchemaOf } from '../../src/graphql/input-schema.js';

describe('input schemas', () => {
  it('name exactly the arguments of their field and the fields of their input type', () => {
    const schema = getSchema();
    const carriers: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (isInputObjectType(type)) {
        const declared = inputSchemaOf(type);
        if (!declared) continue;
        carriers.push(type.name);
        expect(Object.keys(declared.properties ?? {}).sort(), type.name).toEqual(Object.keys(type.getFields()).sort());
      }
    }
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(root.getFields())) {
        const declared = inputSchemaOf(field);
        if (!declared) continue;
        carriers.push(`${root.name}.${field.name}`);
        expect(Object.keys(declared.properties ?? {}).sort(), field.name).toEqual(field.args.map((a) => a.name).sort());
      }
    }
    // Every root field a REST route runs with arguments, and both inquiry inputs.
    expect(carriers.sort()).toEqual(
      [
        'Query.blogPosts',
        'Query.costBenchmarks',
        'Query.inspirationPhoto',
        'Query.inspirationPhotos',
        'Query.knowledgeSearch',
        'Query.pricingEstimate',
        'Query.regionalCostRange',
        'Query.vendors',
        'Query.venue',
        'Query.venues',
        'VendorInquiryInput',
        'VenueInquiryInput',
      ].sort(),
    );
  });
});
