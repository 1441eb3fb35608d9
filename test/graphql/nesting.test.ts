import { describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { documentNesting, valueNesting } from '../../src/graphql/nesting.js';

describe('documentNesting: { and [ inside one another, as the parser would recurse into them', () => {
  it('counts selection sets, list and object literals and list types', () => {
    expect(documentNesting('')).toBe(0);
    expect(documentNesting('{ __typename }')).toBe(1);
    expect(documentNesting('{ venues(first: 1) { nodes { slug } } }')).toBe(3);
    expect(documentNesting('{ venues(amenities: [["pool"]]) { totalCount } }')).toBe(3);
    expect(documentNesting('{ a(filter: {b: {c: [1]}}) }')).toBe(4);
    expect(documentNesting('query ($a: [[[String!]]]) { __typename }')).toBe(3);
    expect(documentNesting(`{ v(a: ${'['.repeat(2500)}${']'.repeat(2500)}) }`)).toBe(2501);
    // GraphiQL's own introspection query, the deepest document a client is known to send.
    expect(documentNesting(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, oneOf: true }))).toBe(10);
  });

  it('skips strings, block strings and comments as the lexer does', () => {
    expect(documentNesting('{ a(s: "[[[{{{") }')).toBe(1);
    expect(documentNesting('{ a(s: "\\"[[[") }')).toBe(1);
    expect(documentNesting('{ a(s: """ [[[ \\""" {{{ """) }')).toBe(1);
    expect(documentNesting('{ a # [[[[\n b }')).toBe(1);
    expect(documentNesting('{ a # [[[[\r[ b ] }')).toBe(2);
    // A string left open ends at its line's end, where the lexer refuses it: what follows still counts.
    expect(documentNesting('{ a(s: "open\n[[[ ) }')).toBe(4);
  });

  it('an unbalanced closer does not hide the nesting after it', () => {
    expect(documentNesting(']]]] {[[ ]] }')).toBe(3);
  });
});

describe('valueNesting: lists and objects of a JSON value, without recursion', () => {
  it('counts the value itself, and goes as deep as the value does', () => {
    expect(valueNesting('x')).toBe(0);
    expect(valueNesting(null)).toBe(0);
    expect(valueNesting({})).toBe(1);
    expect(valueNesting({ first: 20, region: 'tuscany' })).toBe(1);
    expect(valueNesting({ a: [1, [2]], b: { c: {} } })).toBe(3);
    const deep = JSON.parse(`{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(valueNesting(deep)).toBe(50_001);
  });
});
