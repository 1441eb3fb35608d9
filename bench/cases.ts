/** The measured cases, how their inputs are discovered, and the body checks that run before every load. */

export interface BenchRequest {
  method: 'GET' | 'POST';
  /** Path and query on the target server. */
  path: string;
  body?: string;
  /** Headers besides the key and Content-Type. */
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // Bodies of many shapes; the checks below navigate them freely.
  json: any;
}

/** A response read once: its text, and its JSON when it is JSON (checks look at both). */
export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: json stays null
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Sends one request with the bench key (to the child server over HTTP, or in-process through app.fetch). */
export type Send = (request: BenchRequest) => Promise<Answer>;

export type ServerName = 'api' | 'b0' | 'b1';
export type BaselineId = 'B1' | 'B1g' | 'B1d' | 'B1v';

export interface BenchCase {
  id: string;
  label: string;
  server: ServerName;
  request: BenchRequest;
  /** The B1 variant returning the same data: ratios ×B1 use it (null: no hand-written baseline, e.g. MIX). */
  sameDataAs: BaselineId | null;
  /** null when the answer is a 200 with the expected shape; otherwise what is wrong. */
  check: (answer: Answer) => string | null;
}

/** R4/R5: the 20-venue GraphQL query of §4 G4. */
export const venuesQuery = (first: number) =>
  `query BenchVenues { venues(first: ${first}) { totalCount nodes { slug name pricing { currency startingTotal { amount } } photos { url } testimonials { rating } } } }`;

export const graphqlPost = (first = 20): BenchRequest => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query: venuesQuery(first) }) });

const SEARCH = '/api/v1/venues?limit=20';

type Check = (json: any) => string | false;

function checked(...conditions: Check[]): (answer: Answer) => string | null {
  return (answer) => {
    if (answer.status !== 200) return `status ${answer.status}`;
    if (answer.json === null) return 'body is not JSON';
    for (const condition of conditions) {
      const problem = condition(answer.json);
      if (problem) return problem;
    }
    return null;
  };
}

const restPage =
  (size: (n: number) => boolean): Check =>
  (b) =>
    (!Array.isArray(b.data) && 'data is not a list') ||
    (!size(b.data.length) && `data has ${b.data.length} items`) ||
    (typeof b.pagination?.total_count !== 'number' && 'pagination.total_count missing') ||
    (typeof b.pagination?.has_more !== 'boolean' && 'pagination.has_more missing');
const venueItems: Check = (b) =>
  !b.data.every((v: any) => typeof v.slug === 'string' && typeof v.pricing?.currency === 'string') && 'an item lacks slug or pricing';
const graphqlVenues: Check = (b) =>
  (b.errors && `errors: ${JSON.stringify(b.errors).slice(0, 200)}`) ||
  (b.data?.venues?.nodes?.length !== 20 && 'data.venues.nodes is not 20 venues') ||
  (typeof b.data.venues.totalCount !== 'number' && 'totalCount missing') ||
  (!b.data.venues.nodes.every((v: any) => Array.isArray(v.photos) && Array.isArray(v.testimonials) && v.pricing) &&
    'a node lacks photos, testimonials or pricing');

export const checkSearch = checked(
  restPage((n) => n === 20),
  venueItems,
);
export const checkGraph = checked(graphqlVenues);

/** Inputs the cases need from real data: a venue slug with photos and testimonials, and page 5 of the search. */
export interface Discovery {
  slug: string;
  page5Path: string;
  /** The first item of page 5 (to recognise it). */
  page5FirstSlug: string;
}

export async function discover(send: Send): Promise<Discovery> {
  const graph = await send(graphqlPost());
  const problem = checkGraph(graph);
  if (problem) throw new Error(`R4 answer unusable (${problem}): ${graph.text.slice(0, 300)}`);
  const nodes = graph.json.data.venues.nodes as Array<{ slug: string; photos: unknown[]; testimonials: unknown[] }>;
  const slug = (nodes.find((v) => v.photos.length && v.testimonials.length) ?? nodes[0]).slug;

  let path = SEARCH;
  let answer = await send({ method: 'GET', path });
  for (let page = 2; page <= 5; page++) {
    const next = answer.json?.pagination?.next_cursor;
    if (answer.status !== 200 || typeof next !== 'string')
      throw new Error(`search page ${page - 1} has no next_cursor: ${answer.text.slice(0, 300)}`);
    path = `${SEARCH}&cursor=${encodeURIComponent(next)}`;
    answer = await send({ method: 'GET', path });
  }
  const problem5 = checkSearch(answer);
  if (problem5) throw new Error(`search page 5 unusable (${problem5}): ${answer.text.slice(0, 300)}`);
  return { slug, page5Path: path, page5FirstSlug: answer.json.data[0].slug };
}

/** B0, the B1 variants and R1–R7, in the order each round runs them. */
export function benchCases(d: Discovery): BenchCase[] {
  const checkDetail = checked(
    (b) =>
      (b.data?.slug !== d.slug && `data.slug is not ${d.slug}`) ||
      (!Array.isArray(b.data.photos) && 'photos missing') ||
      (!Array.isArray(b.data.testimonials) && 'testimonials missing'),
  );
  const checkVendors = checked(
    restPage((n) => n === 20),
    (b) => typeof b.category_stats !== 'object' && 'category_stats missing',
  );
  return [
    { id: 'B0', label: 'static R1 body, node:http', server: 'b0', request: { method: 'GET', path: '/' }, sameDataAs: 'B1', check: checkSearch },
    { id: 'B1', label: 'hand-written SQL, R1 body', server: 'b1', request: { method: 'GET', path: '/search' }, sameDataAs: 'B1', check: checkSearch },
    { id: 'B1g', label: 'hand-written SQL, R4 body', server: 'b1', request: { method: 'GET', path: '/graph' }, sameDataAs: 'B1g', check: checkGraph },
    {
      id: 'B1d',
      label: 'hand-written SQL, R3 body',
      server: 'b1',
      request: { method: 'GET', path: `/detail/${encodeURIComponent(d.slug)}` },
      sameDataAs: 'B1d',
      check: checkDetail,
    },
    {
      id: 'B1v',
      label: 'hand-written SQL, R6 body',
      server: 'b1',
      request: { method: 'GET', path: '/vendors' },
      sameDataAs: 'B1v',
      check: checkVendors,
    },
    { id: 'R1', label: 'GET /api/v1/venues?limit=20', server: 'api', request: { method: 'GET', path: SEARCH }, sameDataAs: 'B1', check: checkSearch },
    {
      id: 'R2',
      label: 'R1 + state, capacity_min, amenities',
      server: 'api',
      request: { method: 'GET', path: `${SEARCH}&state=california&capacity_min=10&amenities=pool` },
      sameDataAs: 'B1',
      check: checked(
        restPage((n) => n >= 1 && n <= 20),
        venueItems,
        (b) => !b.data.every((v: any) => v.amenities.includes('pool') && v.capacity_max >= 10) && 'an item does not match the filters',
      ),
    },
    {
      id: 'R3',
      label: 'GET /api/v1/venues/{slug}',
      server: 'api',
      request: { method: 'GET', path: `/api/v1/venues/${encodeURIComponent(d.slug)}` },
      sameDataAs: 'B1d',
      check: checkDetail,
    },
    {
      id: 'M1',
      label: 'MCP tools/call search_venues, 20 venues',
      server: 'api',
      request: {
        method: 'POST',
        path: '/mcp',
        headers: { accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_venues', arguments: { limit: 20 } } }),
      },
      sameDataAs: 'B1',
      check: checked(
        (b) =>
          (b.result?.isError && `tool error: ${JSON.stringify(b.result.structuredContent).slice(0, 200)}`) ||
          (b.result?.structuredContent?.data?.length !== 20 && 'structuredContent.data is not 20 venues'),
      ),
    },
    { id: 'R4', label: 'GraphQL POST, 20 venues', server: 'api', request: graphqlPost(), sameDataAs: 'B1g', check: checkGraph },
    {
      id: 'R5',
      label: 'GraphQL GET ?query=, same',
      server: 'api',
      request: { method: 'GET', path: `/graphql?query=${encodeURIComponent(venuesQuery(20))}` },
      sameDataAs: 'B1g',
      check: checkGraph,
    },
    {
      id: 'R6',
      label: 'GET /api/v1/vendors?limit=20',
      server: 'api',
      request: { method: 'GET', path: '/api/v1/vendors?limit=20' },
      sameDataAs: 'B1v',
      check: checkVendors,
    },
    {
      id: 'R7',
      label: 'venue search page 5 (next_cursor)',
      server: 'api',
      request: { method: 'GET', path: d.page5Path },
      sameDataAs: 'B1',
      check: checked(
        restPage((n) => n === 20),
        venueItems,
        (b) => b.data[0].slug !== d.page5FirstSlug && 'not page 5',
      ),
    },
  ];
}

/** What SQL is counted for: the API cases plus R4 at first:100 (G1: the count must not grow with page size). */
export function sqlCountCases(d: Discovery): Array<{ id: string; request: BenchRequest; check: (a: Answer) => string | null }> {
  const api = benchCases(d).filter((c) => c.server === 'api' && c.id !== 'R5');
  return [
    ...api.map((c) => ({ id: c.id, request: c.request, check: c.check })),
    {
      id: 'R4@100',
      request: graphqlPost(100),
      check: checked(
        (b) => (b.errors && `errors: ${JSON.stringify(b.errors).slice(0, 200)}`) || (!Array.isArray(b.data?.venues?.nodes) && 'no nodes'),
      ),
    },
  ];
}
