/**
 * Two servers at once (`npm run bench:ab -- --old <dir> --path <route> [--path …] [--graphql] [--embedded]`): the code
 * built in `<dir>` (a git worktree of the commit to compare with, after `npm install` or a `node_modules` link and `npm
 * run build`) and this checkout's `dist/`, both on one scratch PostgreSQL database (DATABASE_URL), or with
 * `--embedded` each on its copy of one seeded embedded database, both pinned to CPU 0 and loaded in turn (autocannon
 * from this process on CPU 1, the order alternating round by round). Each round gives new ÷ old for req/s and for the
 * server's CPU per request (its embedded database's included); the median over the rounds is the answer. `--graphql`
 * adds R4's request (a GraphQL POST of 20 venues, bench/cases.ts), `--mcp` M1's (an assistant's search_venues).
 * `--realistic` sends them as the realistic cases do (bench/realistic.ts): `Accept-Encoding: gzip, br`, an allowed
 * Origin, a key and client address in turn from a pool of `--keys` (500), to servers that log every request to a
 * pipe, with the default key lease, CORS and a trusted proxy (PostgreSQL only: the keys are made on its database).
 * One server loaded after the other drifts with the
 * host (identical runs here differed 2× ten minutes apart); two loaded in turn share its spells.
 * An A/A run (the same code twice) gave ratios between 0.60 and 1.46 per round and a median of 0.93: differences under
 * ~10 % are not resolved (docs/performance.md, "Running it"). Side by side it also favours this checkout's server (an
 * A/A run: 0.873 of the other's CPU per request for R1); `--apart` runs one server at a time instead, each started
 * afresh for each measurement, in the same alternating order (the same A/A run: 0.977).
 *
 * `--start-of old` or `new` runs both servers with the node options and environment defaults of that checkout's `npm
 * start` (each its own by default), to tell what the code costs from what the heap sizing costs.
 *
 * `--instructions` counts instead of timing: both servers run under valgrind's callgrind (bench/instructions.ts) and
 * each round gives their instructions per request over `--requests` requests after as many uncounted; repeatable
 * within a few per cent where timing is not. Needs valgrind (`apt-get install -y valgrind`).
 */
import { parseArgs } from 'node:util';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canPin, cleanupAll, freePort, pinSelf, registerCleanup, registerTempDir, startNode, type Child } from './children.js';
import { callgrindWrapper, hasCallgrind, instructionsPerRequest } from './instructions.js';
import { median } from './report.js';
import { baseEnv, FIRST_START_TIMEOUT_MS, LOAD_CPU, READY, SERVER_CPU } from './servers.js';
import { createRotation, measure, type Measurement, type Rotation } from './load.js';
import { createScratchDatabase, isLoopback } from './postgres.js';
import { abSummary, type AbRound } from './ab-summary.js';
import { graphqlPost, mcpSearchCall } from './cases.js';
import { clientAddress, REALISTIC_HEADERS, REALISTIC_KEYS_MIN, realisticApiEnv } from './realistic.js';
import { openDatabase } from '../src/db/client.js';
import { createApiKey } from '../src/auth/api-keys.service.js';

const { values: args } = parseArgs({
  options: {
    old: { type: 'string' },
    path: { type: 'string', multiple: true },
    graphql: { type: 'boolean', default: false },
    mcp: { type: 'boolean', default: false },
    realistic: { type: 'boolean', default: false },
    keys: { type: 'string', default: String(REALISTIC_KEYS_MIN) },
    embedded: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    instructions: { type: 'boolean', default: false },
    apart: { type: 'boolean', default: false },
    requests: { type: 'string', default: '5000' },
    'start-of': { type: 'string' },
  },
});

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const oldDir = args.old ? resolve(args.old) : '';
const paths = args.path ?? [];
/** R4's and M1's requests (bench/cases.ts), measured after the paths with --graphql and --mcp. */
const R4 = graphqlPost();
const M1 = mcpSearchCall();
const loads: Array<{ label: string; method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }> = [
  ...paths.map((path) => ({ label: path, method: 'GET' as const, path })),
  ...(args.graphql ? [{ label: 'R4 (POST /graphql, 20 venues)', method: 'POST' as const, path: R4.path, body: R4.body }] : []),
  ...(args.mcp ? [{ label: 'M1 (POST /mcp, search_venues, 20 venues)', ...M1 }] : []),
];
/** What a load sends to a server on `port`, with `headers` (the key, or the realistic ones) before its own. */
const requestOf = (load: (typeof loads)[number], port: number, headers: Record<string, string>) => ({
  url: `http://127.0.0.1:${port}${load.path}`,
  method: load.method,
  headers: load.body ? { ...headers, ...load.headers, 'content-type': 'application/json' } : { ...headers, ...load.headers },
  body: load.body,
});
const realistic = args.realistic ?? false;
const keyCount = Number(args.keys);
const rounds = Number(args.rounds);
const duration = Number(args.duration);
const connections = Number(args.connections);
const requests = Number(args.requests);
const counting = args.instructions ?? false;
const apart = args.apart ?? false;
/** Seconds of load a server started for one measurement (--apart) gets before it. */
const APART_WARMUP_S = 5;
const startOf = args['start-of'];
/** The checkout whose `npm start` both servers run as (--start-of), or undefined: each its own. */
const startDir = startOf === 'old' ? oldDir : startOf === 'new' ? repoRoot : undefined;
const databaseUrl = process.env.DATABASE_URL;
const embedded = args.embedded ?? false;

function usage(problem: string): never {
  process.stderr.write(
    `bench:ab: ${problem}\nusage: DATABASE_URL=postgres://… npm run bench:ab -- --old <built checkout> --path /api/v1/… [--path …] [--rounds 6] [--duration 3] [--connections 50] [--apart] [--start-of old|new] [--instructions [--requests 5000]]\n`,
  );
  process.exit(2);
}
if (!oldDir || !existsSync(join(oldDir, 'dist/src/main.js'))) usage('--old must name a checkout with a build (dist/src/main.js)');
if (!existsSync(join(repoRoot, 'dist/src/main.js'))) usage('this checkout has no build: npm run build');
if (!loads.length || paths.some((p) => !p.startsWith('/'))) usage('give one or more --path /… (path and query), or --graphql');
if (counting && realistic) usage('--instructions counts one key without compression: drop --realistic');
if (counting && apart) usage('--apart times one server at a time; --instructions counts both at once');
if (realistic && embedded) usage('--realistic makes its keys on PostgreSQL: give DATABASE_URL, not --embedded');
if (realistic && !(Number.isInteger(keyCount) && keyCount >= REALISTIC_KEYS_MIN))
  usage(`--keys takes a whole number of at least ${REALISTIC_KEYS_MIN}`);
if (![rounds, duration, connections, requests].every((n) => Number.isInteger(n) && n > 0))
  usage('--rounds, --duration, --connections and --requests take whole numbers');
if (startOf !== undefined && startOf !== 'old' && startOf !== 'new') usage('--start-of takes old or new');
if (counting && !hasCallgrind()) usage('--instructions needs valgrind (apt-get install -y valgrind)');
if (!embedded && (!databaseUrl || !isLoopback(databaseUrl)))
  usage('DATABASE_URL must name a PostgreSQL server on this machine (a scratch database is made on it), or give --embedded');

async function startServer(
  name: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  wrapper?: string[],
): Promise<{ child: Child; port: number; demoKey: string | null }> {
  const port = await freePort();
  const child = startNode(name, 'dist/src/main.js', { env: { ...env, PORT: String(port) }, cpu: SERVER_CPU, cwd, wrapper, startOf: startDir });
  const ready = await child.waitFor(READY, FIRST_START_TIMEOUT_MS);
  return { child, port, demoKey: ready[2] ?? null };
}

async function main(): Promise<void> {
  if (!(canPin && pinSelf(LOAD_CPU))) process.stderr.write('bench:ab: cannot pin (taskset, 2 CPUs): both servers and the load share the machine\n');
  const common = {
    ...baseEnv(),
    BENCH: '1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE_TTL_SECONDS: '0',
    CURSOR_SECRET: 'bench-ab-cursor-secret-0123456789abcdef',
  };
  let database: Record<'old' | 'new', NodeJS.ProcessEnv>;
  if (embedded) {
    const dir = registerTempDir(mkdtempSync(join(tmpdir(), 'bench-ab-data-')));
    database = { new: { DATA_DIR: join(dir, 'new') }, old: { DATA_DIR: join(dir, 'old') } };
  } else {
    const scratch = await createScratchDatabase(databaseUrl!);
    registerCleanup(scratch.drop);
    database = { new: { DATABASE_URL: scratch.url }, old: { DATABASE_URL: scratch.url } };
  }
  // This checkout migrates and seeds; the old code serves the same rows without migrating (it may predate a migration).
  const floor = realistic ? realisticApiEnv(common, { responseCache: false }) : common;
  const serverEnv = (which: 'old' | 'new') => ({ ...floor, ...database[which], ...(which === 'old' ? { MIGRATE_ON_START: 'false' } : {}) });
  let fresh = await startServer('new', repoRoot, serverEnv('new'));
  const demoKey = fresh.demoKey;
  if (!demoKey) throw new Error('the first start printed no demo key');
  if (embedded) {
    // Each server has an embedded database of its own: a copy of the one the first start seeded, the same rows.
    await fresh.child.stop();
    cpSync(database.new.DATA_DIR!, database.old.DATA_DIR!, { recursive: true });
    if (!counting) fresh = await startServer('new', repoRoot, serverEnv('new'));
  }
  if (counting) {
    // Seeding under valgrind would take minutes: the first start seeds natively, then both run under callgrind.
    if (!embedded) await fresh.child.stop();
    const dirs = {
      old: registerTempDir(mkdtempSync(join(tmpdir(), 'bench-ir-old-'))),
      new: registerTempDir(mkdtempSync(join(tmpdir(), 'bench-ir-new-'))),
    };
    const counted = {
      new: { ...(await startServer('new', repoRoot, serverEnv('new'), callgrindWrapper(dirs.new))), dir: dirs.new },
      old: { ...(await startServer('old', oldDir, serverEnv('old'), callgrindWrapper(dirs.old))), dir: dirs.old },
    };
    return countInstructions(counted, demoKey);
  }
  // Side by side, both run throughout; --apart stops the first start's server and starts one for each measurement.
  if (apart) await fresh.child.stop();
  const running = apart ? undefined : { new: fresh, old: await startServer('old', oldDir, serverEnv('old')) };
  // BENCH=1 lifts the rate limits: one key serves every request, unless --realistic rotates a pool of them.
  const rotation = realistic ? await keyRotation(database.new.DATABASE_URL!) : undefined;
  const headers: Record<string, string> = realistic ? { ...REALISTIC_HEADERS } : { authorization: `Bearer ${demoKey}` };
  const target = (port: number, load: (typeof loads)[number]) => ({
    ...requestOf(load, port, headers),
    keys: [],
    rotation,
  });
  /**
   * Runs `use` on a server: the one running, or with --apart one started for it, then stopped. A fresh server is
   * warmed for APART_WARMUP_S first: after 2 s, today's code still spent a fifth more CPU per request than after 5.
   */
  const onServer = async (which: 'old' | 'new', load: (typeof loads)[number], use: (server: typeof fresh) => Promise<Measurement>) => {
    if (running) return use(running[which]);
    const server = await startServer(which, which === 'new' ? repoRoot : oldDir, { ...serverEnv(which), MIGRATE_ON_START: 'false' });
    try {
      await measure(target(server.port, load), server.child.pid, { connections, duration: APART_WARMUP_S });
      return await use(server);
    } finally {
      await server.child.stop();
    }
  };
  process.stdout.write(
    `old: ${oldDir}\nnew: ${repoRoot}\n${rounds} rounds × ${duration} s per server, c=${connections}${realistic ? `, realistic (${keyCount} keys)` : ''}${apart ? ', one server at a time' : ''}\n`,
  );
  for (const load of loads) {
    const { label } = load;
    if (running)
      for (const server of [running.old, running.new]) await measure(target(server.port, load), server.child.pid, { connections, duration: 2 });
    const done: AbRound[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const);
      const measured: Partial<Record<'old' | 'new', Measurement>> = {};
      for (const which of order)
        measured[which] = await onServer(which, load, (server) => measure(target(server.port, load), server.child.pid, { connections, duration }));
      for (const m of Object.values(measured))
        if (m.failures) throw new Error(`${label}: ${m.failures} failed requests (${JSON.stringify(m.statusCodes)})`);
      done.push({ old: measured.old!, new: measured.new! });
      const last = done.at(-1)!;
      process.stdout.write(
        `${label} round ${round + 1}: req/s ${last.old.rps.toFixed(0)} → ${last.new.rps.toFixed(0)}, CPU µs/req ${last.old.cpuMicrosPerRequest?.toFixed(0)} → ${last.new.cpuMicrosPerRequest?.toFixed(0)}\n`,
      );
    }
    const summary = abSummary(done);
    process.stdout.write(
      `${label}: median new ÷ old  req/s ${summary.rps.toFixed(3)}  CPU/req ${summary.cpuPerRequest?.toFixed(3) ?? 'n/a'}  (rounds' req/s ratios ${summary.rpsRange.map((r) => r.toFixed(2)).join('–')})\n`,
    );
  }
}

/** --realistic: `--keys` partner keys made on the servers' database, each with a client address of its own. */
async function keyRotation(databaseUrl: string): Promise<Rotation> {
  const db = await openDatabase({ dataDir: '', databaseUrl, migrate: false });
  try {
    const keys: string[] = [];
    for (let made = 0; made < keyCount; made += 50) {
      const batch = Array.from({ length: Math.min(50, keyCount - made) }, (_, i) =>
        createApiKey({ tier: 'partner', name: `bench:ab ${made + i + 1}` }, db),
      );
      keys.push(...(await Promise.all(batch)).map((k) => k.key));
    }
    return createRotation(keys, (i) => ({ 'x-forwarded-for': clientAddress(i) }));
  } finally {
    await db.close();
  }
}

/** --instructions: per load (paths, --graphql, --mcp) and round, each server's instructions per request. */
async function countInstructions(servers: Record<'old' | 'new', { child: Child; port: number; dir: string }>, demoKey: string): Promise<void> {
  const headers = { authorization: `Bearer ${demoKey}` };
  process.stdout.write(
    `old: ${oldDir}\nnew: ${repoRoot}\n${rounds} rounds × ${requests} counted requests per server (after ${requests} uncounted)\n`,
  );
  for (const load of loads) {
    const { label } = load;
    const ratios: number[] = [];
    const lowest = { old: Infinity, new: Infinity };
    for (let round = 0; round < rounds; round++) {
      const counted: Record<string, number> = {};
      for (const which of ['old', 'new'] as const) {
        const { child, port, dir } = servers[which];
        counted[which] = await instructionsPerRequest(dir, child.pid, requestOf(load, port, headers), requests, requests);
        lowest[which] = Math.min(lowest[which], counted[which]);
      }
      ratios.push(counted.new / counted.old);
      process.stdout.write(`${label} round ${round + 1}: instructions/request ${Math.round(counted.old)} → ${Math.round(counted.new)}\n`);
    }
    process.stdout.write(
      `${label}: lowest ${Math.round(lowest.old)} → ${Math.round(lowest.new)} (${(lowest.new / lowest.old).toFixed(3)}), median round new ÷ old ${median(ratios).toFixed(3)}\n`,
    );
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void cleanupAll().finally(() => process.exit(130)));
const code = await main().then(
  () => 0,
  (e: Error) => {
    process.stderr.write(`bench:ab failed: ${e.stack ?? e.message}\n`);
    return 1;
  },
);
await cleanupAll();
process.exit(code);
