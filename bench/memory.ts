/**
 * `npx tsx bench/memory.ts`: the service's resident memory, as docs/operations.md (Memory) reports it. Starts the
 * built server (`npm run build` first) as `npm start` does on a new data directory, and reads the RSS of the API
 * process and of its embedded database process (/proc/<pid>/status VmRSS, and VmHWM, the peak) at each step:
 *
 *   first start   30 s after the first start (migrations, demo catalogue, content) said it was ready
 *   mix N min     after each minute of the bench's realistic read mix (MIXr-warm: bench/mix.json as a browser sends
 *                 it, keys and client addresses rotated, response cache at its default TTL)
 *   after the mix 30 s after the mix stopped, and again at 150 s, once V8's memory reducer has given back the heap
 *                 the load grew
 *   restart       30 s after a restart on the same data directory (what a deployment runs on most days)
 *
 *   npx tsx bench/memory.ts                        10 minutes of the mix, 50 connections
 *   npx tsx bench/memory.ts --minutes 2            a quicker look
 *   npx tsx bench/memory.ts --node-options='--max-semi-space-size=16'
 *                                                  other node options than npm start's (package.json), to compare
 *   npx tsx bench/memory.ts --env RESPONSE_CACHE_MAX_MB=16
 *                                                  an extra setting for the server (repeatable)
 *
 * Prints a Markdown table. With taskset the server runs on CPU 0 and the load on CPU 1, as in `npm run bench`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../src/db/client.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { cleanupAll, descendantRunning, freePort, pinSelf, registerTempDir, startNode, type Child } from './children.js';
import { createRotation } from './load.js';
import { loadMix, measureMix, type MixCursor } from './mix-replay.js';
import { MIX_CURSOR_SECRET } from './mix.js';
import { clientAddress, realisticApiEnv, REALISTIC_HEADERS } from './realistic.js';
import { baseEnv, FIRST_START_TIMEOUT_MS, LOAD_CPU, READY, SERVER_CPU, START_TIMEOUT_MS } from './servers.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    keys: { type: 'string', default: '2000' },
    settle: { type: 'string', default: '30' },
    'node-options': { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
  },
});

/** A settle long enough for the start's last timers and GCs, short enough to call the server idle. */
const settleMs = Number(args.settle) * 1000;
/** Idle time after the mix before its last sample: V8's memory reducer has run by then. */
const REDUCER_SETTLE_MS = 150_000;

interface Sample {
  when: string;
  api: ProcessMemory | null;
  database: ProcessMemory | null;
  /** The sentence model's process while it runs (started by the first knowledge search, gone when idle). */
  model: ProcessMemory | null;
  /** The API's V8 heap (committed and in use) and memory outside it that V8 tracks, from its metrics port, in MB. */
  heap: HeapMemory | null;
  /** The mix's throughput over the minute before, the API's CPU per request (its database's included) and the database's. */
  load?: { rps: number; cpuMicros: number | null; databaseCpuMicros: number | null };
}

/** Resident and peak resident memory of one process, in MB. */
interface ProcessMemory {
  rss: number;
  peak: number;
}

function memoryOf(pid: number | undefined): ProcessMemory | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

interface HeapMemory {
  committed: number;
  used: number;
  external: number;
}

/** The API's heap as prom-client's default metrics report it (src/observability/metrics.ts). */
async function heapOf(metricsPort: number): Promise<HeapMemory | null> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const mb = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
    return { committed: mb('nodejs_heap_size_total_bytes'), used: mb('nodejs_heap_size_used_bytes'), external: mb('nodejs_external_memory_bytes') };
  } catch {
    return null;
  }
}

async function sampleOf(when: string, api: Child, metricsPort: number, load?: Sample['load']): Promise<Sample> {
  return {
    when,
    heap: await heapOf(metricsPort),
    api: memoryOf(api.pid),
    database: memoryOf(descendantRunning(api.pid, 'database-process')),
    model: memoryOf(descendantRunning(api.pid, 'knowledge.model-process')),
    load,
  };
}

function table(samples: Sample[]): string {
  const mb = (m: ProcessMemory | null, key: keyof ProcessMemory) => (m ? Math.round(m[key]).toString() : '–');
  const heap = (h: HeapMemory | null) => (h ? [h.committed, h.used, h.external].map(Math.round).join(' / ') : '–');
  return [
    '| when | API RSS MB | API peak MB | API heap committed / used / external MB | database RSS MB | database peak MB | model RSS MB | mix req/s | µs CPU/req | database µs/req |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...samples.map(
      (s) =>
        `| ${s.when} | ${mb(s.api, 'rss')} | ${mb(s.api, 'peak')} | ${heap(s.heap)} | ${mb(s.database, 'rss')} | ${mb(s.database, 'peak')} | ${mb(s.model, 'rss')} | ` +
        `${s.load ? Math.round(s.load.rps) : ''} | ${s.load?.cpuMicros ? Math.round(s.load.cpuMicros) : ''} | ` +
        `${s.load?.databaseCpuMicros ? Math.round(s.load.databaseCpuMicros) : ''} |`,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const minutes = Number(args.minutes);
  const connections = Number(args.connections);
  const keyCount = Number(args.keys);
  if (![minutes, connections, keyCount].every((n) => Number.isInteger(n) && n >= 0))
    throw new Error('--minutes, --connections and --keys take whole numbers');
  const extraEnv = Object.fromEntries(args.env!.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  const nodeOptions = args['node-options']?.split(/\s+/).filter(Boolean);
  const log = (line: string) => process.stderr.write(`memory: ${line}\n`);
  pinSelf(LOAD_CPU);

  const dataDir = join(registerTempDir(mkdtempSync(join(tmpdir(), 'wedding-memory-'))), 'data');
  const port = await freePort();
  const metricsPort = await freePort();
  // The realistic API (bench/realistic.ts): logs on, the default key lease, response cache at its default TTL.
  const env = {
    ...realisticApiEnv(
      {
        ...baseEnv(),
        BENCH: '1',
        NODE_ENV: 'production',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DATA_DIR: dataDir,
        CURSOR_SECRET: MIX_CURSOR_SECRET,
      },
      { responseCache: true },
    ),
    ...extraEnv,
  };
  const start = async (timeoutMs: number) => {
    const child = startNode('API server', 'dist/src/main.js', { env, cpu: SERVER_CPU, cwd: repoRoot, nodeOptions });
    await child.waitFor(READY, timeoutMs);
    return child;
  };

  const samples: Sample[] = [];
  log(`first start on ${dataDir}…`);
  let api = await start(FIRST_START_TIMEOUT_MS);
  await sleep(settleMs);
  samples.push(await sampleOf('first start, idle', api, metricsPort));

  log(`${keyCount} partner keys…`);
  const db = await openDatabase({ dataDir, shareEmbedded: true });
  const keys: string[] = [];
  for (let made = 0; made < keyCount; made += 50) {
    const batch = Array.from({ length: Math.min(50, keyCount - made) }, () => createApiKey({ tier: 'partner', name: 'memory bench' }, db));
    keys.push(...(await Promise.all(batch)).map((k) => k.key));
  }
  await db.close();

  const mix = loadMix();
  const rotation = createRotation(keys, (i) => ({ 'x-forwarded-for': clientAddress(i) }));
  const cursor: MixCursor = { next: 0 };
  for (let minute = 1; minute <= minutes; minute++) {
    const m = await measureMix(
      { baseUrl: `http://127.0.0.1:${port}`, keys: [], headers: REALISTIC_HEADERS, rotation },
      { entries: mix.file.entries, requests: mix.requests },
      cursor,
      api.pid,
      { connections, duration: 60 },
    );
    if (m.failures) log(`minute ${minute}: ${m.failures} failed requests, e.g. ${JSON.stringify(m.failedEntries[0] ?? null)}`);
    samples.push(
      await sampleOf(`mix, minute ${minute}`, api, metricsPort, {
        rps: m.rps,
        cpuMicros: m.cpuMicrosPerRequest,
        databaseCpuMicros: m.databaseCpuMicrosPerRequest ?? null,
      }),
    );
    log(table(samples.slice(-1)).split('\n')[2]);
  }
  if (minutes) {
    await sleep(settleMs);
    samples.push(await sampleOf(`after the mix, ${args.settle} s idle`, api, metricsPort));
    // V8's memory reducer gives back the young generation and the old generation's room to grow only after the heap
    // has been quiet for a while (about a minute here), so the idle figure after the mix is read once it has run.
    await sleep(Math.max(0, REDUCER_SETTLE_MS - settleMs));
    samples.push(await sampleOf(`after the mix, ${REDUCER_SETTLE_MS / 1000} s idle`, api, metricsPort));
  }

  await api.stop();
  api = await start(START_TIMEOUT_MS);
  await sleep(settleMs);
  samples.push(await sampleOf('restart, idle', api, metricsPort));
  await api.stop();

  const options = nodeOptions ? nodeOptions.join(' ') : "npm start's";
  process.stdout.write(`node options: ${options}${args.env!.length ? `; env: ${args.env!.join(' ')}` : ''}\n\n${table(samples)}\n`);
}

try {
  await main();
} finally {
  await cleanupAll();
}
// The WASM schema engine (openDatabase) leaves a timer behind.
process.exit(0);
