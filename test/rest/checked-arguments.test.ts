import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { checkedWith, parsedArguments } from '../../src/graphql/context.js';
import * as pricingInputs from '../../src/pricing/pricing.inputs.js';
import * as vendorInputs from '../../src/vendors/vendors.inputs.js';
import * as inspirationInputs from '../../src/inspiration/inspiration.inputs.js';

// A REST route whose arguments include closed sets parses its raw parameters first (RestRoute.check), so that a bad
// value answers the spec's code; the resolver then reuses that result instead of running the same parser again.
// Each parser is wrapped in a counting spy for this file (vi.mock), and every surface must run it exactly once.

vi.mock('../../src/pricing/pricing.inputs.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/pricing/pricing.inputs.js')>();
  return { ...original, parsePricingEstimate: vi.fn(original.parsePricingEstimate) };
});
vi.mock('../../src/vendors/vendors.inputs.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/vendors/vendors.inputs.js')>();
  return { ...original, parseVendorSearch: vi.fn(original.parseVendorSearch) };
});
vi.mock('../../src/inspiration/inspiration.inputs.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/inspiration/inspiration.inputs.js')>();
  return { ...original, parseInspirationSearch: vi.fn(original.parseInspirationSearch) };
});

const parsers = {
  pricing: vi.mocked(pricingInputs.parsePricingEstimate),
  vendors: vi.mocked(vendorInputs.parseVendorSearch),
  inspiration: vi.mocked(inspirationInputs.parseInspirationSearch),
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => vi.clearAllMocks());

describe('a route check’s parsed arguments reach the resolver', () => {
  const cases = [
    {
      name: 'pricing estimate',
      parser: 'pricing',
      rest: '/api/v1/venues/pricing?region=NY&season=Peak&nights=3',
      graphql: '{ pricingEstimate(region: "NY", season: PEAK, nights: 3) { estimatedTotal } }',
    },
    {
      name: 'vendor search',
      parser: 'vendors',
      rest: '/api/v1/vendors?category=photography&limit=2',
      graphql: '{ vendors(category: "photography", first: 2) { totalCount } }',
    },
    {
      name: 'inspiration search',
      parser: 'inspiration',
      rest: '/api/v1/inspiration?style=rustic&limit=2',
      graphql: '{ inspirationPhotos(style: RUSTIC, first: 2) { totalCount } }',
    },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: REST and GraphQL each run its parser once`, async () => {
      const rest = await t.rest(c.rest);
      expect(rest.status, rest.text).toBe(200);
      expect(parsers[c.parser]).toHaveBeenCalledTimes(1);

      vi.clearAllMocks();
      const gql = await t.graphql(c.graphql);
      expect(gql.body.errors, gql.text).toBeUndefined();
      expect(parsers[c.parser]).toHaveBeenCalledTimes(1);
    });
  }

  it('a value the check refuses answers its code after the one parse', async () => {
    const rest = await t.rest('/api/v1/venues/pricing?season=monsoon');
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code: 'invalid_season', param: 'season' });
    expect(parsers.pricing).toHaveBeenCalledTimes(1);
  });
});

describe('parsedArguments', () => {
  const double = (input: unknown) => 2 * Number(input);
  const triple = (input: unknown) => 3 * Number(input);

  it('takes the checked value when the same parser produced it, and parses otherwise', () => {
    const ctx = checkedWith(double, 5);
    expect(ctx.checkedArguments.value).toBe(10);
    expect(parsedArguments(ctx, double, 'ignored')).toBe(10);
    expect(parsedArguments(ctx, triple, 5)).toBe(15);
    expect(parsedArguments({}, double, 4)).toBe(8);
  });
});
