/**
 * Search on a large catalogue (issue 13: every venue and vendor search case ≤ 15 ms median through the whole stack on
 * the 100,000-venue catalogue). Runs the real app in-process (app.fetch: auth, validation, GraphQL, Prisma, the
 * database) against DATABASE_URL and prints median / p95 ms per case: each §4.1 venue filter alone, the common
 * combinations, page 50 by cursor (unfiltered and filtered), and each §4.7 vendor filter and sort_by, with page 50.
 *
 *   createdb -h 127.0.0.1 -U postgres scale100k
 *   export DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale100k
 *   npm run db:migrate && npm run -s seed -- --venues 100000 --vendors 50000
 *   npm run bench:scale [-- --runs 30] [--check] [--only '<label substring>|…'] [--explain]
 *
 * --check exits 1 when any case's median is over the goal. --explain (with --only) prints, instead of timings, each
 * statement one request of the case sends, as Prisma wrote it, with EXPLAIN (ANALYZE, BUFFERS) of it run on its own
 * connection (which index each filter and count uses). Every response must be 200; total_count is printed so a
 * change of results shows up beside a change of speed.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logging/logger.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { UNREACHABLE_POLICY } from '../src/limits/limits.policy.js';

const GOAL_MS = 15;
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    check: { type: 'boolean' },
    only: { type: 'string' },
    explain: { type: 'boolean' },
  },
});
const runs = Number(args.runs);
const warmup = Number(args.warmup);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmup) || warmup < 0) throw new Error('--runs and --warmup take whole numbers');

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required (a seeded PostgreSQL database; see the header of bench/scale.ts)');
const db = await openDatabase({ databaseUrl: url });
const app = createApp({
  prisma: db.prisma,
  readRows: db.readRows,
  log: createLogger({ level: 'silent' }),
  baseUrl: 'http://bench',
  cursorSecret: 'scale-bench-secret-0123456789abcdef',
  limiter: { policy: UNREACHABLE_POLICY },
});
const { key } = await createApiKey({ tier: 'partner', name: 'scale bench' }, db);

type Body = { data: unknown[]; pagination: { next_cursor: string | null; total_count: number } };
const get = async (path: string): Promise<Body> => {
  const res = await app.fetch(new Request(`http://bench${path}`, { headers: { authorization: `Bearer ${key}` } }));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Body>;
};

/** The path of page `page` (1-based) of a search, reached by following next_cursor from page 1. */
async function pageVia(path: string, page: number): Promise<string> {
  let cursor: string | null = null;
  for (let p = 1; p < page; p++) {
    cursor = (await get(cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : path)).pagination.next_cursor;
    if (!cursor) throw new Error(`${path}: only ${p} pages`);
  }
  return cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : path;
}

interface Case {
  label: string;
  path: string | (() => Promise<string>);
  /** This case's goal, ms median, when it is not GOAL_MS. */
  goal?: number;
}

const V = '/api/v1/venues?limit=20';
const D = '/api/v1/vendors?limit=20';
const venueCases: Case[] = [
  { label: 'page 1, no filter', path: V },
  { label: 'state=california', path: `${V}&state=california` },
  { label: 'state=texas', path: `${V}&state=texas` },
  { label: 'city=austin', path: `${V}&city=austin` },
  { label: 'venue_type=villa (substring)', path: `${V}&venue_type=villa` },
  { label: 'venue_type=barn (substring, in barndominium too)', path: `${V}&venue_type=barn` },
  { label: 'venue_type=castle (rare)', path: `${V}&venue_type=castle` },
  { label: 'capacity_min=20', path: `${V}&capacity_min=20` },
  { label: 'capacity_min=40 (few)', path: `${V}&capacity_min=40` },
  { label: 'capacity_max=8', path: `${V}&capacity_max=8` },
  { label: 'bedrooms_min=8', path: `${V}&bedrooms_min=8` },
  { label: 'price_min=5000&price_max=5500 (narrow)', path: `${V}&price_min=5000&price_max=5500` },
  { label: 'price_min=5000&price_max=9000 (wide)', path: `${V}&price_min=5000&price_max=9000` },
  { label: 'price_min=1000&price_max=50000 (very wide)', path: `${V}&price_min=1000&price_max=50000` },
  { label: 'price_min=20000 (open above)', path: `${V}&price_min=20000` },
  { label: 'price_max=3000 (open below)', path: `${V}&price_max=3000` },
  { label: 'amenities=pool', path: `${V}&amenities=pool` },
  { label: 'amenities=pool,hot-tub', path: `${V}&amenities=pool,hot-tub` },
  { label: 'amenities=ocean-view', path: `${V}&amenities=ocean-view` },
  { label: 'state + capacity + amenities', path: `${V}&state=texas&capacity_min=20&amenities=pool,hot-tub` },
  { label: 'state + price band', path: `${V}&state=california&price_min=5000&price_max=9000` },
  { label: 'venue_type + state', path: `${V}&venue_type=villa&state=california` },
  { label: 'city + venue_type', path: `${V}&city=austin&venue_type=ranch` },
  { label: 'venue_type + price band', path: `${V}&venue_type=villa&price_min=5000&price_max=9000` },
  { label: 'capacity + price band', path: `${V}&capacity_min=20&price_min=5000&price_max=9000` },
  { label: 'amenities + price band', path: `${V}&amenities=pool&price_min=5000&price_max=9000` },
  { label: 'state + bedrooms + amenities', path: `${V}&state=california&bedrooms_min=6&amenities=pool` },
  { label: 'venue_type + capacity + amenities', path: `${V}&venue_type=estate&capacity_min=20&amenities=pool` },
  { label: 'page 50 via cursor, no filter', path: () => pageVia(V, 50) },
  { label: 'page 50 via cursor, amenities=pool', path: () => pageVia(`${V}&amenities=pool`, 50) },
  { label: 'page 50 via cursor, venue_type=villa', path: () => pageVia(`${V}&venue_type=villa`, 50) },
  { label: 'page 50 via cursor, price band (wide)', path: () => pageVia(`${V}&price_min=5000&price_max=9000`, 50) },
];
/** Discovery (docs/discovery.md): each case ≤ 20 ms median; a point, words, three filters and every facet ≤ 30 ms. */
const ALL_FACETS = 'facets=venue_type,amenities,state,price_band,capacity_band';
const discoveryCases: Case[] = [
  { label: 'near + radius_km=50', path: `${V}&near=35.5951,-82.5515&radius_km=50`, goal: 20 },
  { label: 'near_city=napa&radius_km=100', path: `${V}&near_city=napa&radius_km=100`, goal: 20 },
  { label: 'bbox (Bay Area)', path: `${V}&bbox=-123.5,37.2,-121.5,38.9`, goal: 20 },
  { label: 'q=lakefront', path: `${V}&q=lakefront`, goal: 20 },
  { label: 'q=tuscanny (a slip)', path: `${V}&q=tuscanny`, goal: 20 },
  { label: 'q=mountain view (two words)', path: `${V}&q=mountain%20view`, goal: 20 },
  { label: 'sort=distance near a point', path: `${V}&near=35.5951,-82.5515&radius_km=200&sort=distance`, goal: 20 },
  { label: 'sort=relevance q=barn', path: `${V}&q=barn&sort=relevance`, goal: 20 },
  { label: 'sort=price_asc', path: `${V}&sort=price_asc`, goal: 20 },
  { label: 'sort=price_desc', path: `${V}&sort=price_desc`, goal: 20 },
  { label: 'sort=capacity_desc', path: `${V}&sort=capacity_desc`, goal: 20 },
  { label: 'page 50 via cursor, sort=price_asc', path: () => pageVia(`${V}&sort=price_asc`, 50), goal: 20 },
  { label: 'facets, all five', path: `${V}&${ALL_FACETS}`, goal: 20 },
  { label: 'amenities + state + all facets', path: `${V}&amenities=pool&state=california&${ALL_FACETS}`, goal: 20 },
  { label: 'capacity + price band + all facets', path: `${V}&capacity_min=20&price_min=5000&price_max=20000&${ALL_FACETS}`, goal: 20 },
  // A word a quarter of the catalogue has: its facets are counted over 25,561 venues.
  { label: 'q=mountain + all facets', path: `${V}&q=mountain&${ALL_FACETS}`, goal: 20 },
  {
    label: 'near + q + 3 filters + all facets',
    path: `${V}&near_city=asheville&radius_km=150&q=mountain&capacity_min=10&bedrooms_min=4&amenities=hot-tub&${ALL_FACETS}`,
    goal: 30,
  },
];
const SORTS = ['newest', 'price_low_to_high', 'price_high_to_low', 'experience', 'weddings_completed'];
const vendorCases: Case[] = [
  ...SORTS.map((sort) => ({ label: `sort_by=${sort}`, path: `${D}&sort_by=${sort}` })),
  { label: 'category=photography', path: `${D}&category=photography` },
  { label: 'state=california', path: `${D}&state=california` },
  { label: 'city=austin', path: `${D}&city=austin` },
  { label: 'location=texas', path: `${D}&location=texas` },
  { label: 'location=san (substring)', path: `${D}&location=san` },
  { label: 'price_min=2000&price_max=2500 (narrow)', path: `${D}&price_min=2000&price_max=2500` },
  { label: 'price_min=500&price_max=10000 (wide)', path: `${D}&price_min=500&price_max=10000` },
  { label: 'search=garden', path: `${D}&search=garden` },
  { label: 'search=xyzzy (no match)', path: `${D}&search=xyzzy` },
  { label: 'featured=true', path: `${D}&featured=true` },
  { label: 'featured=false', path: `${D}&featured=false` },
  { label: 'category + state', path: `${D}&category=photography&state=california` },
  { label: 'category + price_low_to_high', path: `${D}&category=florists&sort_by=price_low_to_high` },
  { label: 'category + location + search', path: `${D}&category=catering&location=texas&search=farm` },
  { label: 'state + price band + experience', path: `${D}&state=texas&price_min=500&price_max=10000&sort_by=experience` },
  { label: 'page 50 via cursor, newest', path: () => pageVia(D, 50) },
  { label: 'page 50 via cursor, price_low_to_high', path: () => pageVia(`${D}&sort_by=price_low_to_high`, 50) },
  { label: 'page 50 via cursor, category + weddings_completed', path: () => pageVia(`${D}&category=photography&sort_by=weddings_completed`, 50) },
];

/** Each statement one request of the case sends, with its plan (EXPLAIN ANALYZE runs it again, on its own connection). */
async function explain(c: Case): Promise<void> {
  const path = typeof c.path === 'string' ? c.path : await c.path();
  const statements: { query: string; params: unknown[] }[] = [];
  // Every statement, Prisma's and the driver reads' (venue search and detail are driver reads).
  const stop = db.onQuery((e) => statements.push({ query: e.query, params: e.params() }));
  await get(path);
  stop();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    console.log(`\n## ${c.label}: ${path.slice(0, 160)}`);
    for (const s of statements.filter((st) => /^\s*(SELECT|WITH)/i.test(st.query) && !/"ApiKey"|"ExchangeRate"/.test(st.query))) {
      const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.query}`, s.params);
      console.log(`\n${s.query}\n-- params ${JSON.stringify(s.params)}\n${plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')}`);
    }
  } finally {
    await client.end();
  }
}

/** --only takes substrings of case labels separated by `|`. */
const picked = (c: Case) => !args.only || args.only.split('|').some((part) => c.label.includes(part));

interface Result {
  group: string;
  label: string;
  goal: number;
  median: number;
  p95: number;
  /** Median over the runs of the time Prisma reports for the request's statements together (the database's share). */
  sql: number;
  statements: number;
  total: number;
}

async function measure(group: string, c: Case): Promise<Result> {
  const path = typeof c.path === 'string' ? c.path : await c.path();
  let total = 0;
  for (let i = 0; i < warmup; i++) total = (await get(path)).pagination.total_count;
  const samples: number[] = [];
  const sqlSamples: number[] = [];
  let sqlMs = 0;
  let statements = 0;
  const stop = db.onQuery((e) => {
    sqlMs += e.durationMs;
    statements++;
  });
  for (let i = 0; i < runs; i++) {
    sqlMs = 0;
    const t0 = performance.now();
    await get(path);
    samples.push(performance.now() - t0);
    sqlSamples.push(sqlMs);
  }
  stop();
  const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
  return {
    group,
    label: c.label,
    goal: c.goal ?? GOAL_MS,
    median: at(samples, 0.5),
    p95: at(samples, 0.95),
    sql: at(sqlSamples, 0.5),
    statements: statements / runs,
    total,
  };
}

if (args.explain) {
  for (const c of [...venueCases, ...discoveryCases, ...vendorCases].filter((c) => picked(c))) await explain(c);
  await db.close();
  process.exit(0);
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const published = (await get('/api/v1/venues?limit=1')).pagination.total_count;
const active = (await get('/api/v1/vendors?limit=1')).pagination.total_count;
console.log(
  `${published.toLocaleString('en-US')} published venues, ${active.toLocaleString('en-US')} active vendors; ${runs} runs per case after ${warmup} warm-up; goal: median ≤ ${GOAL_MS} ms (discovery: as each case says); load average at start ${load()}\n`,
);
console.log('| search | case | median ms | p95 ms | SQL ms (median) | statements | total_count |\n|---|---|--:|--:|--:|--:|--:|');
const results: Result[] = [];
for (const [group, cases] of [
  ['venues', venueCases],
  ['discovery', discoveryCases],
  ['vendors', vendorCases],
] as const) {
  for (const c of cases) {
    if (!picked(c)) continue;
    const r = await measure(group, c);
    results.push(r);
    const over = r.median > r.goal ? ` **over ${r.goal}**` : '';
    console.log(
      `| ${r.group} | ${r.label} | ${r.median.toFixed(1)}${over} | ${r.p95.toFixed(1)} | ${r.sql.toFixed(1)} | ${r.statements} | ${r.total.toLocaleString('en-US')} |`,
    );
  }
}
const over = results.filter((r) => r.median > r.goal);
console.log(
  `\n${over.length === 0 ? `all ${results.length} cases within their goal` : `${over.length} of ${results.length} cases over their goal: ${over.map((r) => `${r.group} ${r.label}`).join('; ')}`}`,
);
console.log(`load average at end ${load()} (${cpus().length} CPUs; other work on the machine inflates every figure)`);
await db.close();
process.exit(args.check && over.length > 0 ? 1 : 0);
