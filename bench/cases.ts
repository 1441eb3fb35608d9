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

import { venueRoutes } from '../src/venues/venues.rest.js';

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
/**
 * The hand-written baselines (bench/baseline-sql.ts), each returning one API case's body: B1 R1, B1g R4, B1d R3,
 * B1v R6, B1vd R8, B1c R9, B1pe R10, B1rr R11, B1cb R12, B1i R13, B1id R14, B1bl R15, B1bd R16, B1bt R17, B1k R18.
 */
export type BaselineId =
  | 'B1'
  | 'B1g'
  | 'B1d'
  | 'B1v'
  | 'B1vd'
  | 'B1c'
  | 'B1pe'
  | 'B1rr'
  | 'B1cb'
  | 'B1i'
  | 'B1id'
  | 'B1bl'
  | 'B1bd'
  | 'B1bt'
  | 'B1k'
  /** The realistic profile's (bench/realistic.ts): B1 and B1g with a real endpoint's duties. */
  | 'B1r'
  | 'B1gr';

export interface BenchCase {
  id: string;
  label: string;
  server: ServerName;
  request: BenchRequest;
  /** The B1 variant returning the same data: ratios ×B1 use it (null: no hand-written baseline, e.g. MIX). */
  sameDataAs: BaselineId | null;
  /** null when the answer is a 200 with the expected shape; otherwise what is wrong. */
  check: (answer: Answer) => string | null;
  /**
   * Connections for this case instead of the run's (-c). Knowledge search (R18, B1k) embeds the question: concurrent
   * embeddings on the model's wasm backend advance in lockstep and all finish together, so 50 of them answer nothing
   * for seconds and leave a backlog that runs into the next case; a few connections keep it measurable.
   */
  connections?: number;
  /** Baselines: the API case whose body this one must equal (request_id aside), checked before loading. */
  bodyOf?: string;
  /** Baselines: SQL statements per request (B1v's three go in one round trip; the pricing models need none). */
  statements?: number;
}

/** R4/R5: the 20-venue GraphQL query of §4 G4. */
export const venuesQuery = (first: number) =>
  `query BenchVenues { venues(first: ${first}) { totalCount nodes { slug name pricing { currency startingTotal { amount } } photos { url } testimonials { rating } } } }`;

export const graphqlPost = (first = 20): BenchRequest => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query: venuesQuery(first) }) });

/** M1's request: an assistant's tools/call of search_venues for 20 venues. */
export const mcpSearchCall = (): BenchRequest => ({
  method: 'POST',
  path: '/mcp',
  headers: { accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_venues', arguments: { limit: 20 } } }),
});

/**
 * The query strings of the cases that take parameters. An API case and its baseline send the same one: the baselines
 * parse it per request, as the routes do (bench/baseline-sql.ts), rather than answer from constants.
 */
const PAGE_QUERY = 'limit=20';
const PRICING_QUERY = new URLSearchParams({
  region: 'california',
  event_guests: '120',
  overnight_guests: '40',
  nights: '3',
  season: 'peak',
}).toString();
const RANGE_QUERY = new URLSearchParams({ city: 'Nashville', season: 'october', guests: '150' }).toString();
const KNOWLEDGE_QUERY = new URLSearchParams({ q: 'how much deposit do venues ask for' }).toString();

const SEARCH = `/api/v1/venues?${PAGE_QUERY}`;
/** The REST venue search's own GraphQL document (src/venues/venues.rest.ts). */
const SEARCH_DOCUMENT = venueRoutes.find((r) => r.operationId === 'searchVenues')!.document;

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
  /** The newest vendor, the first inspiration photo, the newest blog post (R8, R14, R16). */
  vendorSlug: string;
  photoId: string;
  postSlug: string;
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
  const first = async (what: string, request: string) => {
    const list = await send({ method: 'GET', path: request });
    const item = list.json?.data?.[0];
    if (list.status !== 200 || !item) throw new Error(`${what} has no first item: ${list.text.slice(0, 300)}`);
    return item as Record<string, string>;
  };
  const [vendor, photo, post] = [
    await first('vendor search', '/api/v1/vendors?limit=20'),
    await first('inspiration', '/api/v1/inspiration'),
    await first('blog', '/api/v1/blog/posts'),
  ];
  return { slug, page5Path: path, page5FirstSlug: answer.json.data[0].slug, vendorSlug: vendor.slug, photoId: photo.id, postSlug: post.slug };
}

const list =
  (min: number): Check =>
  (b) =>
    (!Array.isArray(b.data) && 'data is not a list') || (b.data.length < min && `data has ${b.data.length} items`);

/** R8–R18 (every other read route of §4) and their baselines: [API case, baseline, label, API path, baseline path, check]. */
function routeCases(d: Discovery): Array<[string, BaselineId, string, string, string, (answer: Answer) => string | null]> {
  const dataIs =
    (key: string, value: string): Check =>
    (b) =>
      b.data?.[key] !== value && `data.${key} is not ${value}`;
  return [
    [
      'R8',
      'B1vd',
      'GET /api/v1/vendors/{slug}',
      `/api/v1/vendors/${encodeURIComponent(d.vendorSlug)}`,
      `/vendor/${encodeURIComponent(d.vendorSlug)}`,
      checked(dataIs('slug', d.vendorSlug), (b) => !Array.isArray(b.data.photos) && 'photos missing'),
    ],
    ['R9', 'B1c', 'GET /api/v1/vendors/categories', '/api/v1/vendors/categories', '/categories', checked(list(11))],
    [
      'R10',
      'B1pe',
      'GET /api/v1/venues/pricing?region=california…',
      `/api/v1/venues/pricing?${PRICING_QUERY}`,
      `/pricing?${PRICING_QUERY}`,
      checked((b) => typeof b.data?.estimated_total !== 'number' && 'estimated_total missing'),
    ],
    [
      'R11',
      'B1rr',
      'GET /api/v1/regional-cost-ranges?city=Nashville…',
      `/api/v1/regional-cost-ranges?${RANGE_QUERY}`,
      `/range?${RANGE_QUERY}`,
      checked((b) => (b.covered !== true && 'not covered') || (typeof b.data?.scaled?.low !== 'number' && 'scaled missing')),
    ],
    [
      'R12',
      'B1cb',
      'GET /api/v1/cost-benchmarks',
      '/api/v1/cost-benchmarks',
      '/benchmarks',
      checked(list(3), (b) => b.currency !== 'USD' && 'currency is not USD'),
    ],
    [
      'R13',
      'B1i',
      'GET /api/v1/inspiration',
      '/api/v1/inspiration',
      '/inspiration',
      checked(list(20), (b) => typeof b.pagination?.total !== 'number' && 'pagination.total missing'),
    ],
    ['R14', 'B1id', 'GET /api/v1/inspiration/{id}', `/api/v1/inspiration/${d.photoId}`, `/photo/${d.photoId}`, checked(dataIs('id', d.photoId))],
    [
      'R15',
      'B1bl',
      'GET /api/v1/blog/posts',
      '/api/v1/blog/posts',
      '/posts',
      checked(list(1), (b) => typeof b.pagination?.has_more !== 'boolean' && 'pagination.has_more missing'),
    ],
    [
      'R16',
      'B1bd',
      'GET /api/v1/blog/posts/{slug}',
      `/api/v1/blog/posts/${encodeURIComponent(d.postSlug)}`,
      `/post/${encodeURIComponent(d.postSlug)}`,
      checked(dataIs('slug', d.postSlug)),
    ],
    ['R17', 'B1bt', 'GET /api/v1/blog/tags', '/api/v1/blog/tags', '/tags', checked(list(1))],
    [
      'R18',
      'B1k',
      'GET /api/v1/knowledge/search?q=… (c=4)',
      `/api/v1/knowledge/search?${KNOWLEDGE_QUERY}`,
      `/knowledge?${KNOWLEDGE_QUERY}`,
      checked(list(1), (b) => (b.degraded ? `degraded: ${b.degraded}` : false)),
    ],
  ];
}

/** B0, the B1 variants, R1–R7, M1 and R8–R18, in the order each round runs them. */
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
  const routes = routeCases(d);
  return [
    { id: 'B0', label: 'static R1 body, node:http', server: 'b0', request: { method: 'GET', path: '/' }, sameDataAs: 'B1', check: checkSearch },
    {
      id: 'B1',
      label: 'hand-written SQL, R1 body',
      server: 'b1',
      request: { method: 'GET', path: `/search?${PAGE_QUERY}` },
      sameDataAs: 'B1',
      check: checkSearch,
      bodyOf: 'R1',
      statements: 1,
    },
    {
      id: 'B1g',
      label: 'hand-written SQL, R4 body',
      server: 'b1',
      request: { method: 'GET', path: '/graph' },
      sameDataAs: 'B1g',
      check: checkGraph,
      bodyOf: 'R4',
      statements: 1,
    },
    {
      id: 'B1d',
      label: 'hand-written SQL, R3 body',
      server: 'b1',
      request: { method: 'GET', path: `/detail/${encodeURIComponent(d.slug)}` },
      sameDataAs: 'B1d',
      check: checkDetail,
      bodyOf: 'R3',
      statements: 1,
    },
    {
      id: 'B1v',
      label: 'hand-written SQL, R6 body',
      server: 'b1',
      request: { method: 'GET', path: `/vendors?${PAGE_QUERY}` },
      sameDataAs: 'B1v',
      check: checkVendors,
      bodyOf: 'R6',
      statements: 2,
    },
    ...routes.map(([api, baseline, , , path, check]): BenchCase => ({
      id: baseline,
      label: `hand-written${NO_SQL.has(baseline) ? ', no SQL' : api === 'R18' ? ' embedder + SQL' : ' SQL'}, ${api} body${api === 'R18' ? ' (c=4)' : ''}`,
      server: 'b1',
      request: { method: 'GET', path },
      sameDataAs: baseline,
      check,
      bodyOf: api,
      statements: NO_SQL.has(baseline) ? 0 : 1,
      ...(api === 'R18' ? { connections: EMBEDDING_CONNECTIONS } : {}),
    })),
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
      request: mcpSearchCall(),
      sameDataAs: 'B1',
      check: checked(
        (b) =>
          (b.result?.isError && `tool error: ${JSON.stringify(b.result.structuredContent).slice(0, 200)}`) ||
          (b.result?.structuredContent?.data?.length !== 20 && 'structuredContent.data is not 20 venues'),
      ),
    },
    { id: 'R4', label: 'GraphQL POST, 20 venues', server: 'api', request: graphqlPost(), sameDataAs: 'B1g', check: checkGraph },
    {
      // The issue's "GraphQL with the same data": R1's own route document, sent to /graphql as a client would.
      id: 'R1g',
      label: "GraphQL POST of R1's document, 20 venues",
      server: 'api',
      request: { method: 'POST', path: '/graphql', body: JSON.stringify({ query: SEARCH_DOCUMENT, variables: { limit: 20 } }) },
      sameDataAs: 'B1',
      check: checked(
        (b) =>
          (b.errors && `errors: ${JSON.stringify(b.errors).slice(0, 200)}`) ||
          (b.data?.venues?.nodes?.length !== 20 && 'data.venues.nodes is not 20 venues'),
      ),
    },
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
      request: { method: 'GET', path: `/api/v1/vendors?${PAGE_QUERY}` },
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
    ...routes.map(([api, baseline, label, path, , check]): BenchCase => ({
      id: api,
      label,
      server: 'api',
      request: { method: 'GET', path },
      sameDataAs: baseline,
      check,
      ...(api === 'R18' ? { connections: EMBEDDING_CONNECTIONS } : {}),
    })),
  ];
}

/** Baselines that run the route's pure model (the pricing estimate and regional ranges read no table). */
const NO_SQL = new Set<BaselineId>(['B1pe', 'B1rr']);

/** R18 and B1k: connections (see BenchCase.connections). */
export const EMBEDDING_CONNECTIONS = 4;

/**
 * The order a round loads the cases in: each hand-written baseline directly before the API cases compared with it, so
 * a ratio's two sides are measured seconds apart rather than minutes. On a host whose speed drifts, the old order (every
 * baseline, then every API case) once put R1 in a slow spell B1 had missed: R1 ÷ B1 0.33 in one run, 0.66 in the last
 * (docs/performance.md, Machine and method). Returns indexes into `cases`, each once: the static B0 first, then each baseline
 * with its API cases, then the cases compared with none.
 */
export function loadOrder(cases: readonly Pick<BenchCase, 'id' | 'server' | 'sameDataAs'>[]): number[] {
  return loadGroups(cases).flat();
}

/**
 * loadOrder's cases as the groups a round measures together: each hand-written baseline with the API cases compared
 * with it (one group), every other case alone. A round loads a group's members in turn, slice by slice
 * (bench/database-run.ts), so a ratio's two sides share the host's fast and slow spells.
 */
export function loadGroups(cases: readonly Pick<BenchCase, 'id' | 'server' | 'sameDataAs'>[]): number[][] {
  const indexes = cases.map((_c, i) => i);
  const comparedWith = (baseline: number) => indexes.filter((i) => cases[i].server === 'api' && cases[i].sameDataAs === cases[baseline].id);
  const groups = [
    ...indexes.filter((i) => cases[i].server === 'b0').map((i) => [i]),
    ...indexes.filter((i) => cases[i].server === 'b1').map((b) => [b, ...comparedWith(b)]),
  ];
  const placed = new Set(groups.flat());
  return [...groups, ...indexes.filter((i) => !placed.has(i)).map((i) => [i])];
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
