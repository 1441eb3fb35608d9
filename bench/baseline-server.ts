/**
 * Baseline servers, run as a child process by bench/run.ts (pinned like the API server):
 * - BENCH_BASELINE=static (B0): bare node:http answering every request with a pre-serialised body (BODY_FILE).
 * - BENCH_BASELINE=sql (B1): bare node:http running one hand-written statement per request through the same driver
 *   as the API (pg, to the embedded database process on BENCH_DATA_DIR, a copy of the API's data directory, or to
 *   PostgreSQL on BENCH_DATABASE_URL):
 *   /search answers R1's body, /graph R4's, /detail/<slug> R3's (B1d), /vendors R6's (B1v), and one path per other read route (bench/cases.ts). BENCH_CURSOR_SECRET: the
 *   API's CURSOR_SECRET, so next_cursor matches.
 * - BENCH_REALISTIC=1 (B0r, B1r, B1gr): besides, what any real endpoint does for a browser's request
 *   (bench/realistic-baseline.ts): the key looked up by its SHA-256 in the database (sql only), one JSON log line
 *   per request on stdout, the body compressed as the client asks, and the CORS header for an origin of
 *   BENCH_CORS_ORIGINS.
 * Prints "listening" once it accepts connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createSqlBodies, type Query, type QueryMany } from './baseline-sql.js';
import { realisticDuties } from './realistic-baseline.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const port = Number(process.env.PORT);
const mode = process.env.BENCH_BASELINE;

let send = (_req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer) => {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
/** The realistic baselines' key check, before the body is made: false when it answered the request itself. */
let admit = async (_req: IncomingMessage, _res: ServerResponse): Promise<boolean> => true;

async function openQuery(): Promise<{ query: Query; queryMany: QueryMany; close: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const queries = (pool: InstanceType<typeof pg.Pool>) => ({
    query: (async (sql, params) => (await pool.query(sql, params)).rows) as Query,
    // Without parameters pg sends the simple protocol: several statements, one round trip, one result each.
    queryMany: (async (sql) => ((await pool.query(sql)) as unknown as Array<{ rows: Record<string, unknown>[] }>).map((r) => r.rows)) as QueryMany,
  });
  if (process.env.BENCH_DATABASE_URL) {
    // The API's pool size (src/db/client.ts default: 2 × CPUs + 1).
    const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: availableParallelism() * 2 + 1 });
    return { ...queries(pool), close: () => pool.end() };
  }
  // The embedded database as the API runs it: a database process of its own (on a copy of the API's data directory)
  // reached over its socket through pg, with the API's pool size. PGlite inside this process would skip the wire
  // protocol the API pays on both sides, and the ratio would measure where the database runs, not the stack.
  const { EMBEDDED_POOL_SIZE, startEmbeddedDatabase } = await import('../src/db/embedded/embedded-database.js');
  const embedded = await startEmbeddedDatabase({ dataDir: process.env.BENCH_DATA_DIR! });
  const pool = new pg.Pool({ connectionString: embedded.url, max: EMBEDDED_POOL_SIZE });
  return {
    ...queries(pool),
    close: async () => {
      await pool.end();
      await embedded.stop();
    },
  };
}

let handler: (req: IncomingMessage, res: ServerResponse) => void;
let close = async () => {};
let query: Query | null = null;

if (mode === 'static') {
  const body = readFileSync(process.env.BODY_FILE!);
  handler = (req, res) => send(req, res, 200, body);
} else if (mode === 'sql') {
  const db = await openQuery();
  close = db.close;
  query = db.query;
  const bodies = await createSqlBodies(db.query, db.queryMany, process.env.BASE_URL!, process.env.BENCH_CURSOR_SECRET || undefined);
  // Fixed paths answer from the request's query string; '/name/<key>' passes the decoded key.
  const fixed: Record<string, (query: URLSearchParams) => Promise<string | null>> = {
    '/search': bodies.search,
    '/graph': bodies.graph,
    '/vendors': bodies.vendors,
    '/categories': bodies.categories,
    '/pricing': bodies.pricing,
    '/range': bodies.range,
    '/benchmarks': bodies.benchmarks,
    '/inspiration': bodies.inspiration,
    '/posts': bodies.posts,
    '/tags': bodies.tags,
    '/knowledge': bodies.knowledge,
  };
  const keyed: Record<string, (key: string) => Promise<string | null>> = {
    detail: bodies.detail,
    vendor: bodies.vendor,
    photo: bodies.photo,
    post: bodies.post,
  };
  // The query string is parsed once per request, where the path is split off (bench/baseline-sql.ts says why).
  const noQuery = new URLSearchParams();
  handler = (req, res) => {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const slash = path.indexOf('/', 1);
    const byKey = slash > 0 ? keyed[path.slice(1, slash)] : undefined;
    const answer = fixed[path];
    const make: (() => Promise<string | null>) | null = answer
      ? () => answer(at < 0 ? noQuery : new URLSearchParams(url.slice(at + 1)))
      : byKey
        ? () => byKey(decodeURIComponent(path.slice(slash + 1)))
        : null;
    if (!make) return send(req, res, 404, '{"error":"not found"}');
    make().then(
      (body) => (body === null ? send(req, res, 404, '{"error":"not found"}') : send(req, res, 200, body)),
      (e: Error) => send(req, res, 500, JSON.stringify({ error: e.message })),
    );
  };
} else {
  throw new Error(`BENCH_BASELINE must be static or sql, not ${mode}`);
}

const realistic = process.env.BENCH_REALISTIC === '1';
if (realistic) {
  const duties = realisticDuties({ query, corsOrigins: (process.env.BENCH_CORS_ORIGINS ?? '').split(',').filter(Boolean) });
  send = duties.send;
  admit = duties.admit;
}

const serve = handler;
const server = createServer(
  realistic
    ? (req, res) => {
        admit(req, res).then(
          (admitted) => admitted && serve(req, res),
          (e: Error) => send(req, res, 500, JSON.stringify({ error: e.message })),
        );
      }
    : serve,
);
server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));

const stop = () => {
  server.close(() => void close().finally(() => process.exit(0)));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
