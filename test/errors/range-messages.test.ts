import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectGraphQLError, expectRestError, type TestApp, type TestResponse } from '../support/app.js';
import { postRest, targets, validBody, type Kind, type Targets } from '../inquiries/support.js';
import { listenApp } from '../support/processes.js';

// Every bounded number parameter of §4, at each bound, just past it and in a form it does not take, on REST and on
// GraphQL where the argument exists. A refusal names the parameter and states what it takes: "limit must be 1 to 100"
// for a whole number outside the range, "limit must be an integer from 1 to 100" for a fraction or an exponent (GraphQL's
// Int and REST's reading of the query string refuse those before the module's parser, and answer in its words), and
// the spec's own code where it names one (invalid_event_guests, invalid_guests).

interface Bounded {
  /** REST path under /api/v1, with the query parameters the route needs besides this one. */
  route: string;
  param: string;
  min: number;
  max: number;
  /** A Float: any plain decimal in range, no exponent. */
  decimal?: boolean;
  /** @default 'invalid_parameters' */
  code?: string;
  graphql?: { field: string; argument: string; args?: string; select: string };
}

const venues = (argument: string) => ({ field: 'venues', argument, select: '{ totalCount }' });
const vendors = (argument: string) => ({ field: 'vendors', argument, select: '{ totalCount }' });
const inspiration = (argument: string) => ({ field: 'inspirationPhotos', argument, select: '{ totalCount }' });
const blog = (argument: string) => ({ field: 'blogPosts', argument, select: '{ page }' });
const pricing = (argument: string) => ({ field: 'pricingEstimate', argument, select: '{ estimatedTotal }' });

const BOUNDED: Bounded[] = [
  { route: '/venues', param: 'limit', min: 1, max: 100, graphql: venues('first') },
  { route: '/venues', param: 'capacity_min', min: 0, max: 10_000, graphql: venues('capacityMin') },
  { route: '/venues', param: 'capacity_max', min: 0, max: 10_000, graphql: venues('capacityMax') },
  { route: '/venues', param: 'bedrooms_min', min: 0, max: 1_000, graphql: venues('bedroomsMin') },
  { route: '/venues', param: 'price_min', min: 0, max: 10_000_000, decimal: true, graphql: venues('priceMin') },
  { route: '/venues', param: 'price_max', min: 0, max: 10_000_000, decimal: true, graphql: venues('priceMax') },
  {
    route: '/venues?near=35.6,-82.55',
    param: 'radius_km',
    min: 1,
    max: 500,
    decimal: true,
    graphql: { field: 'venues', argument: 'radiusKm', args: 'near: [35.6, -82.55]', select: '{ totalCount }' },
  },
  { route: '/vendors', param: 'limit', min: 1, max: 100, graphql: vendors('first') },
  { route: '/vendors', param: 'price_min', min: 0, max: 10_000_000, decimal: true, graphql: vendors('priceMin') },
  { route: '/vendors', param: 'price_max', min: 0, max: 10_000_000, decimal: true, graphql: vendors('priceMax') },
  { route: '/inspiration', param: 'limit', min: 1, max: 100, graphql: inspiration('first') },
  { route: '/inspiration', param: 'offset', min: 0, max: 1_000_000, graphql: inspiration('offset') },
  {
    route: '/knowledge/search?q=deposit',
    param: 'limit',
    min: 1,
    max: 10,
    graphql: { field: 'knowledgeSearch', argument: 'limit', args: 'q: "deposit"', select: '{ asOf }' },
  },
  { route: '/blog/posts', param: 'limit', min: 1, max: 100, graphql: blog('limit') },
  { route: '/blog/posts', param: 'page', min: 1, max: 100_000, graphql: blog('page') },
  { route: '/venues/pricing', param: 'event_guests', min: 1, max: 500, code: 'invalid_event_guests', graphql: pricing('eventGuests') },
  {
    route: '/venues/pricing',
    param: 'overnight_guests',
    min: 1,
    max: 350,
    code: 'invalid_overnight_guests',
    graphql: pricing('overnightGuests'),
  },
  { route: '/venues/pricing', param: 'nights', min: 2, max: 7, code: 'invalid_nights', graphql: pricing('nights') },
  {
    route: '/regional-cost-ranges?state=CA',
    param: 'guests',
    min: 1,
    max: 2000,
    code: 'invalid_guests',
    graphql: { field: 'regionalCostRange', argument: 'guests', args: 'state: "CA"', select: '{ covered }' },
  },
];

/** What a refusal must say: the name it was given as, then its range (or, for the wrong form, the form and range). */
const range = (b: Bounded) => `${b.min} to ${b.max}`;
const formWords = (b: Bounded) => (b.decimal ? `must be a plain decimal number from ${range(b)}` : `must be an integer from ${range(b)}`);
/** Values of a form the parameter does not take, though each is a number in range: a fraction, an exponent, a word. */
const wrongForms = (b: Bounded) => (b.decimal ? ['1e3', '1E3', 'cheap'] : [`${b.min}.5`, `${b.min}e0`, 'ten', '']);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (b: Bounded, value: string) => t.rest(`/api/v1${b.route}${b.route.includes('?') ? '&' : '?'}${b.param}=${encodeURIComponent(value)}`);
const context = (res: TestResponse) => `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 400)}`;

function expectRefusal(res: TestResponse, b: Bounded, words: string) {
  expectRestError(res, 400, b.code ?? 'invalid_parameters', b.param);
  expect(res.body.error.message, context(res)).toContain(`${b.param} ${words}`);
}

describe.each(BOUNDED)('GET /api/v1$route: $param ($min to $max)', (b) => {
  it('takes each bound; refuses just past each with its range, and the wrong form with the form and range', async () => {
    for (const value of [b.min, b.max]) {
      const res = await get(b, String(value));
      expect(res.status, `${b.param}=${value} ${context(res)}`).toBe(200);
    }
    for (const value of [b.min - 1, b.max + 1]) {
      const res = await get(b, String(value));
      // The estimator's codes keep their catalogue sentence, which states the range as "an integer from".
      expectRefusal(res, b, b.code ? `must be an integer from ${range(b)}` : `must be ${range(b)}`);
    }
    // A whole number GraphQL's Int cannot hold is out of range too, not a wrong form.
    if (!b.decimal) expectRefusal(await get(b, '3000000000'), b, b.code ? formWords(b) : `must be ${range(b)}`);
    for (const value of wrongForms(b)) expectRefusal(await get(b, value), b, formWords(b));
  });
});

describe.each(BOUNDED.filter((b) => b.graphql))('GraphQL $graphql.field($graphql.argument) ($min to $max)', (b) => {
  const { field, argument, args, select } = b.graphql!;
  const literal = (value: string) => t.graphql(`{ ${field}(${args ? `${args}, ` : ''}${argument}: ${value}) ${select} }`);
  const code = b.code ?? 'invalid_parameters';

  it('takes each bound; refuses a written value past each bound or of the wrong form, naming the argument', async () => {
    for (const value of [b.min, b.max]) {
      const res = await literal(String(value));
      expect(res.body.errors, `${argument}: ${value} ${context(res)}`).toBeUndefined();
    }
    for (const value of [b.min - 1, b.max + 1, 3_000_000_000]) {
      const res = await literal(String(value));
      expectGraphQLError(res, code, argument);
      expect(res.body.errors[0].message, context(res)).toContain(`${argument} must be ${b.code ? 'an integer from ' : ''}${range(b)}`);
    }
    for (const value of b.decimal ? ['"1e3"', 'true'] : [`${b.min}.5`, `"${b.min}"`]) {
      const res = await literal(value);
      expectGraphQLError(res, code, argument);
      expect(res.body.errors[0].message, context(res)).toContain(`${argument} ${formWords(b)}`);
    }
  });

  it('refuses a variable GraphQL cannot coerce with the same range, naming the variable', async () => {
    const type = b.decimal ? 'Float' : 'Int';
    const document = `query($v: ${type}) { ${field}(${args ? `${args}, ` : ''}${argument}: $v) ${select} }`;
    const res = await t.graphql(document, { v: b.decimal ? '1e3' : b.min + 0.5 });
    expectGraphQLError(res, code, 'v');
    expect(res.body.errors[0].message, context(res)).toContain(`v ${formWords(b)}`);
  });
});

describe('every number argument of every root field is in the table above', () => {
  it('the schema has no Int or Float argument this test does not bound', async () => {
    const res = await t.graphql('{ __schema { queryType { fields { name args { name type { name ofType { name } } } } } } }');
    const numbers = (res.body.data.__schema.queryType.fields as Array<{ name: string; args: Array<{ name: string; type: any }> }>).flatMap((f) =>
      f.args.filter((a) => ['Int', 'Float'].includes(a.type.name ?? a.type.ofType?.name)).map((a) => `${f.name}.${a.name}`),
    );
    expect(numbers.sort()).toEqual(BOUNDED.map((b) => `${b.graphql!.field}.${b.graphql!.argument}`).sort());
  });
});

// §2.11's whole numbers (the JSON body, checked by the module before GraphQL's types): a bound passed is named as
// "must be at least 1" / "must be at most 10000" (inquiry rule 3's words); any other value states the whole range.
const INQUIRY_NUMBERS: Array<{ kind: Kind; field: string; min: number; max: number }> = [
  { kind: 'venue', field: 'event_guests', min: 1, max: 10_000 },
  { kind: 'venue', field: 'overnight_guests', min: 0, max: 10_000 },
  { kind: 'venue', field: 'estimated_price', min: 0, max: 100_000 },
  { kind: 'vendor', field: 'event_guests', min: 0, max: 10_000 },
];

describe.each(INQUIRY_NUMBERS)('POST /api/v1/inquiries/$kind: $field ($min to $max)', ({ kind, field, min, max }) => {
  let tg: Targets;
  beforeAll(async () => {
    tg = await targets(t);
  });

  it('takes each bound; past one names it; a fraction or text states the range', async () => {
    for (const value of [min, max]) {
      const res = await postRest(t, kind, validBody(kind, tg, { [field]: value }));
      expect(res.status, `${field}: ${value} ${context(res)}`).toBe(201);
    }
    for (const [value, words] of [
      [min - 1, `must be at least ${min}`],
      [max + 1, `must be at most ${max}`],
      [min + 0.5, `must be an integer from ${min} to ${max}`],
      ['ten', `must be an integer from ${min} to ${max}`],
    ] as const) {
      const res = await postRest(t, kind, validBody(kind, tg, { [field]: value }));
      expectRestError(res, 400, 'invalid_parameters', field);
      expect(res.body.error.message, context(res)).toContain(`${field} ${words}`);
    }
  });
});

describe('the wording the issue asked for', () => {
  it('reads as a range, not a type, on both surfaces', async () => {
    const message = async (path: string) => (await t.rest(`/api/v1${path}`)).body.error.message;
    expect(await message('/venues?limit=101')).toBe('Invalid parameters: limit must be 1 to 100.');
    expect(await message('/vendors?limit=0')).toBe('Invalid parameters: limit must be 1 to 100.');
    expect(await message('/venues?limit=1.5')).toBe('Invalid parameters: limit must be an integer from 1 to 100.');
    expect(await message('/venues?capacity_min=-5')).toBe('Invalid parameters: capacity_min must be 0 to 10000.');
    expect(await message('/venues?price_min=1e3')).toBe(
      'Invalid parameters: price_min must be a plain decimal number from 0 to 10000000, such as 1000 (no exponent).',
    );
    expect(await message('/knowledge/search?q=deposit&limit=11')).toBe('Invalid parameters: limit must be 1 to 10.');
    expect(await message('/venues/pricing?event_guests=12.5')).toBe('event_guests must be an integer from 1 to 500.');
    const first = await t.graphql('{ venues(first: 500) { totalCount } }');
    expect(first.body.errors[0].message).toBe('Invalid parameters: first must be 1 to 100.');
  });
});

describe('over a real socket, as production serves them (REST, GraphQL and the assistant tool)', () => {
  it('answers the range on every surface', async () => {
    const server = await listenApp(t.app);
    try {
      const auth = { authorization: `Bearer ${t.keys.pro}` };
      const rest = await fetch(`${server.base}/api/v1/venues?limit=101`, { headers: auth });
      expect(rest.status).toBe(400);
      expect(((await rest.json()) as any).error).toMatchObject({
        code: 'invalid_parameters',
        param: 'limit',
        message: 'Invalid parameters: limit must be 1 to 100.',
      });
      const gql = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ venues(first: 500) { totalCount } }' }),
      });
      const gqlBody = (await gql.json()) as any;
      expect(gqlBody.errors[0].extensions).toMatchObject({ code: 'invalid_parameters', param: 'first' });
      expect(gqlBody.errors[0].message).toBe('Invalid parameters: first must be 1 to 100.');
      const tool = await fetch(`${server.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_venues', arguments: { capacity_min: -5 } } }),
      });
      const result = ((await tool.json()) as any).result;
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ code: 'invalid_parameters', param: 'capacity_min' });
      expect(result.structuredContent.error.message).toMatch(/capacity_min must be 0 to 10000/);
    } finally {
      await server.close();
    }
  });
});
