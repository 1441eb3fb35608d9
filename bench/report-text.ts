/** The Markdown `npm run bench` prints for one database run: the stack floor's tables, then the realistic profile's. */
import { compressionTable } from './compression-levels.js';
import { dash, failuresText, fixed, int, markdownTable, ratio, rpsText, summarise, type DatabaseRun } from './report.js';
import { REALISTIC_IDS } from './realistic.js';

const bodiesText = (entries: Array<[string, true | string]>) =>
  entries.length ? entries.map(([k, v]) => `${k} ${v === true ? 'yes' : `NO (${v})`}`).join(', ') : 'not checked';

export interface RunHeader {
  node: string;
  cpuModel: string;
  cores: number;
  /** How the server and load generator were pinned (bench/run.ts). */
  pinning: string;
  connections: number;
  warmup: number;
  duration: number;
  rounds: number;
  slices: number;
}

export function runSection(run: DatabaseRun, h: RunHeader): string[] {
  const idle = run.foreignIdle ? `${run.foreignIdle.cores.toFixed(2)} cores (steal ${run.foreignIdle.stealCores.toFixed(2)})` : 'unknown (no /proc)';
  const databaseCpu =
    run.databaseCpu?.note ?? (run.database === 'pglite' ? "PGlite's embedded database process (its CPU is in CPU µs/req)" : 'PostgreSQL');
  const fewRounds = h.rounds < 3 ? ` **${h.rounds} round(s): medians and ranges need 3 or more.**` : '';
  return [
    `### ${run.database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}`,
    '',
    `Node ${h.node} · ${h.cpuModel} · ${h.cores} cores · pinning: ${h.pinning} · database CPU: ${databaseCpu} · ` +
      `foreign CPU load (1 s idle sample): ${idle} · c=${h.connections}, ${h.warmup} s warm-up, ${h.duration} s × ${h.rounds} round(s) in ${h.slices} interleaved slice(s).${fewRounds}`,
    '',
    `#### Stack floor: one hot key, logs off, no Accept-Encoding (rate limits: ${run.rateLimits.reported}, ${run.rateLimits.keys} key(s))`,
    '',
    run.cases.some((c) => !c.profile) ? markdownTable(run) : 'Not run (--cases).',
    '',
    `×B0: req/s ÷ B0 (static copy of R1's body) in the same round, median over rounds. ×B1: ÷ the hand-written SQL baseline with the same data ` +
      `(B1 = R1's body, B1g = R4's, B1d = R3's, B1v = R6's, and B1vd … B1k = R8 … R18's, bench/cases.ts). Bodies identical to the API's (request_id aside): ${bodiesText(
        Object.entries(run.sameBodies).filter(([k]) => !REALISTIC_IDS.includes(k)),
      )}. ` +
      `CPU µs/req: the server process and its children (on PGlite its database process); database µs/req: the database's part ` +
      `(PGlite: inside CPU µs/req; PostgreSQL: its server's processes, besides). ` +
      `SQL/req: statements of one request counted in-process, including 1 for the API key lookup. Failures: non-2xx, errors and timeouts under load.`,
    '',
    ...mixLines(run),
    '#### OPEN: latency at a fixed arrival rate (open loop, timed from the scheduled send)',
    '',
    openTable(run),
    '',
    ...realisticLines(run),
    ...(run.compression
      ? ["#### Compression levels on this run's R1 and R4 bodies (bench/compression-levels.ts)", '', compressionTable(run.compression), '']
      : []),
  ];
}

function mixLines(run: DatabaseRun): string[] {
  if (!run.mix || !run.cases.some((c) => c.id === 'MIX-cold' || c.id === 'MIX-warm')) return [];
  const { warm } = run.mix;
  return [
    `MIX-cold: ${run.mix.entries} distinct requests (${Object.entries(run.mix.composition)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}); ${run.mix.sent} sent over the rounds, ${run.mix.repeats} of them repeats (only once the list wraps). ` +
      `SQL/req ${run.mix.sql.perRequest} = mean over ${run.mix.sql.sampled} evenly spaced entries counted in-process` +
      `${run.mix.sql.failed.length ? ` (${run.mix.sql.failed.length} failed in-process)` : ''}.` +
      (warm
        ? ` MIX-warm: the same server restarted with its response cache on, primed by one pass over the list in ${warm.primeSeconds.toFixed(1)} s; ` +
          `${warm.identical} of ${warm.sampled} sampled answers identical to the cold server's (${warm.hits} of them hits).`
        : ''),
    '',
  ];
}

function realisticLines(run: DatabaseRun): string[] {
  const r = run.realistic;
  if (!r) return [];
  const pace = perKeyRate(run);
  const paceText = pace
    ? `at the fastest case's median (${pace.case}) each key and address sent ${pace.rate.toFixed(2)} requests a second` +
      (pace.rate > 1
        ? " — **over the spec's 1 a second: raise --keys**"
        : ", so the key lease (1 s) held no key's row from one of its requests to the next")
    : 'no case measured';
  const bodies = Object.entries(run.sameBodies).filter(([k]) => REALISTIC_IDS.includes(k));
  return [
    '#### Realistic: a browser-like client',
    '',
    `Every request: \`Accept-Encoding: ${r.acceptEncoding}\`, \`Origin: ${r.origin}\`, and one of ${r.keys.toLocaleString('en-US')} partner keys with an X-Forwarded-For address of its own, in turn ` +
      `(${r.requestsSent.toLocaleString('en-US')} sent with the rotation); ${paceText}. The API as deployed: LOG_LEVEL=info with stdout a pipe the bench drains, ` +
      `the default API_KEY_LEASE_MS, CORS_ORIGINS and MCP_ALLOWED_ORIGINS naming the origin, TRUST_PROXY=1; the limiter counts every key and address ` +
      `(BENCH=1 only lifts its numbers: no load test keeps to 20 venue details a key a day); response cache off, but at its default TTL for MIXr-warm. Baselines: B1r and B1gr look the key up by its SHA-256 in the database, write one JSON log line to the same kind of pipe, ` +
      `compress as asked with the API's encoder and levels, and add the CORS header; B0r does the same around a static body, without a key. ` +
      `Answers identical to the API's (request_id aside, both br): ${bodiesText(bodies)}.` +
      (r.warm
        ? ` MIXr-warm: primed in ${r.warm.primeSeconds.toFixed(1)} s; ${r.warm.identical} of ${r.warm.sampled} sampled answers identical to the cold server's (${r.warm.hits} of them hits).`
        : ''),
    '',
    realisticTable(run),
    '',
  ];
}

/**
 * The realistic profile's table: req/s and CPU per response (server and database) with their range over rounds, each
 * beside its baseline's (R1r and M1r ÷ B1r, R4r ÷ B1gr, MIXr-warm ÷ MIXr-cold), and the log lines read per response.
 */
export function realisticTable(run: DatabaseRun): string {
  const summaries = summarise(run).filter((s) => s.profile === 'realistic');
  if (!summaries.length) return 'Realistic cases: not run.';
  const rows = summaries.map((s) => {
    const baseline = s.id === 'MIXr-warm' ? 'MIXr-cold' : s.vsB1Name;
    const vs =
      s.id === 'MIXr-warm'
        ? ratio(
            run,
            run.cases.find((c) => c.id === s.id)!,
            'MIXr-cold',
          )
        : s.vsB1;
    const cpu = s.totalCpu ? `${int(s.totalCpu.median)} [${int(s.totalCpu.min)}–${int(s.totalCpu.max)}]` : dash;
    const database = s.databaseCpuMicrosPerRequest === null ? dash : int(s.databaseCpuMicrosPerRequest);
    const versus = (n: number | null) => (n === null || baseline === null || baseline === s.id ? dash : `${n.toFixed(3)} (${baseline})`);
    return `| ${s.id} | ${s.label} | ${rpsText(s)} | ${versus(vs)} | ${cpu} | ${database} | ${versus(s.cpuVsBaseline)} | ${fixed(s.logLinesPerRequest, 2)} | ${fixed(s.p99Ms, 0)} | ${failuresText(s)} |`;
  });
  return [
    '| case | what | req/s median [min–max] | req/s ÷ baseline | CPU µs/req, server + database, median [min–max] | of it database | CPU ÷ baseline | log lines/req | p99 ms | failures |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/**
 * How fast each key (and client address) went in the realistic cases: the fastest case's median req/s ÷ the pool, of
 * the cases whose server checks keys (B0r's static server reads none).
 */
export function perKeyRate(run: DatabaseRun): { rate: number; case: string } | null {
  if (!run.realistic) return null;
  const checksKeys = new Set(run.cases.filter((c) => c.server !== 'b0').map((c) => c.id));
  const fastest = summarise(run)
    .filter((s) => s.profile === 'realistic' && s.rps && checksKeys.has(s.id))
    .sort((a, b) => b.rps!.median - a.rps!.median)[0];
  return fastest ? { rate: fastest.rps!.median / run.realistic.keys, case: fastest.id } : null;
}

/** OPEN's table: p50/p90/p99/max at the fixed rate. */
export function openTable(run: DatabaseRun): string {
  if (!run.open.length) return 'OPEN: not run.';
  return [
    '| case | request | rate /s (basis) | seconds | sent | failures | p50 ms | p90 ms | p99 ms | worst window p99 ms | max ms | generator lag p99 ms |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...run.open.map(
      (o) =>
        `| ${o.id} | ${o.case} | ${o.rate.toFixed(1)} (${o.rateBasis}) | ${o.seconds} | ${o.scheduled} | ${o.failures} | ${o.p50Ms} | ${o.p90Ms} | ${o.p99Ms} | ${o.worstWindowP99Ms} (${o.windowSeconds} s) | ${o.maxMs} | ${o.sendLagP99Ms} |`,
    ),
  ].join('\n');
}
