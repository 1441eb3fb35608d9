import { describe, expect, it } from 'vitest';
import { queryParamIndex, variablesFromArguments, variablesFromQuery, type ParamSpec } from '../../src/rest/params.js';
import { ApiError } from '../../src/errors/api-error.js';

/** A route's query parameters as compileRoute gives them: a list, an integer and a plain string. */
const specs: ParamSpec[] = [
  { name: 'amenities', variable: 'amenities', scalar: 'String', list: true, required: false, in: 'query' },
  { name: 'capacity_min', variable: 'capacityMin', scalar: 'Int', list: false, required: false, in: 'query' },
  { name: 'sort_by', variable: 'sortBy', scalar: 'String', list: false, required: false, in: 'query' },
  { name: 'slug', variable: 'slug', scalar: 'String', list: false, required: true, in: 'path' },
];
const index = queryParamIndex(specs);

function problemOf(query: string): { param: string; problem: string } {
  try {
    variablesFromQuery(new URLSearchParams(query), index);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return (e as ApiError).problems![0];
  }
  throw new Error(`${query} was accepted`);
}

describe('variablesFromQuery', () => {
  it('indexes only the query parameters (a path parameter is not a query one)', () => {
    expect([...index.keys()]).toEqual(['amenities', 'capacity_min', 'sort_by']);
    expect(problemOf('slug=x').param).toBe('slug');
  });

  it('gives each parameter its variable, coerced; a list takes a,b and a=x&a=y alike, in the order sent', () => {
    expect(variablesFromQuery(new URLSearchParams('amenities=pool&capacity_min=80&amenities=spa,+barn&sort_by=newest'), index)).toEqual({
      amenities: ['pool', 'spa', 'barn'],
      capacityMin: 80,
      sortBy: 'newest',
    });
    expect(variablesFromQuery(new URLSearchParams(''), index)).toEqual({});
  });

  it('refuses a repeated single-valued parameter, even when another parameter sits between its two values', () => {
    expect(problemOf('sort_by=newest&capacity_min=5&sort_by=rating')).toEqual({ param: 'sort_by', problem: 'must be given once' });
  });

  it('reports the first problem in the order the names were first sent', () => {
    expect(problemOf('bogus=1&capacity_min=x')).toMatchObject({ param: 'bogus' });
    // A spec without its argument's parser (compileRoute gives one to every bounded number) states GraphQL's range.
    expect(problemOf('capacity_min=x&bogus=1')).toEqual({ param: 'capacity_min', problem: 'must be an integer from -2147483648 to 2147483647' });
    // capacity_min comes first, so its repetition is found before the unknown name that follows it.
    expect(problemOf('capacity_min=1&bogus=1&capacity_min=2')).toEqual({ param: 'capacity_min', problem: 'must be given once' });
    expect(problemOf('capacity_min=x&capacity_min=y')).toEqual({ param: 'capacity_min', problem: 'must be given once' });
  });
});

describe("variablesFromArguments (an assistant tool's typed arguments)", () => {
  const problemOfArgs = (args: Record<string, unknown>) => {
    try {
      variablesFromArguments(args, specs, index);
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      return (e as ApiError).problems![0];
    }
    throw new Error(`${JSON.stringify(args)} was accepted`);
  };

  it("takes values of the variable's type as they are, path parameters included, and never splits a list item", () => {
    expect(
      variablesFromArguments({ amenities: [' pool ', '', 'spa'], capacity_min: 80, slug: 'ca/napa/x', sort_by: 'newest' }, specs, index),
    ).toEqual({
      amenities: ['pool', 'spa'],
      capacityMin: 80,
      slug: 'ca/napa/x',
      sortBy: 'newest',
    });
    expect(variablesFromArguments({ amenities: ['pool,spa'] }, specs, index).amenities).toEqual(['pool,spa']);
    expect(variablesFromArguments({ capacity_min: null }, specs, index)).toEqual({ slug: '' });
  });

  it('reads a value of another type as REST reads its text, so it is refused in the same words', () => {
    expect(variablesFromArguments({ capacity_min: '80', amenities: 'pool, spa' }, specs, index)).toMatchObject({
      capacityMin: 80,
      amenities: ['pool', 'spa'],
    });
    expect(problemOfArgs({ capacity_min: 1.5 })).toEqual(problemOf('capacity_min=1.5'));
    expect(problemOfArgs({ capacity_min: 2 ** 31 })).toEqual(problemOf(`capacity_min=${2 ** 31}`));
  });

  it('refuses an unknown argument in the words of an unknown query parameter, in the order given', () => {
    expect(problemOfArgs({ colour: 'red', capacity_min: 'x' })).toEqual(problemOf('colour=red&capacity_min=x'));
    expect(problemOfArgs({ capacity_min: 'x', colour: 'red' }).param).toBe('capacity_min');
  });
});
