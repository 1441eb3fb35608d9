/**
 * `npm run bench`: the API and its baselines side by side in one run (performance.md §5).
 *
 *   npm run bench                                  3 rounds × (3 s warm-up + 10 s) per case, PGlite (+ PostgreSQL when DATABASE_URL is set)
 *   npm run bench -- --duration 5 --rounds 1       quick run (its round measures R1g before GraphQL's path is warm;
 *                                                  the gates' medians need 3 rounds: docs/performance.md, Machine and method)
 *   npm run bench -- --check                       also exit 1 when a gate of bench/goals.json fails
 *   npm run bench -- --db postgres                 only PostgreSQL (DATABASE_URL); --db pglite | both
 *   npm run bench -- --open-duration 60            OPEN's measured seconds (default 30, after --warmup at its rate)
 *   npm run bench -- --slices 1                    each case's seconds in one stretch (default 5 turns, taken in turn
 *                                                  with its baseline and the other cases compared with it)
 *   npm run bench -- --cases 'R1r|R4r|M1r|MIXr-.*' only these cases (a regular expression over whole ids), with the
 *                                                  baselines they are compared with and B0 (or B0r)
 *   npm run bench -- --keys 2000                   keys the realistic cases rotate (default 10,000, at least 500)
 *
 * Stack floor (one hot key, logs off, no Accept-Encoding): B0 and the hand-written baselines (one per API case with a
 * body of its own: B1, B1g, B1d, B1v, B1vd, B1c, B1pe, B1rr, B1cb, B1i, B1id, B1bl, B1bd, B1bt, B1k), R1–R7, M1, R8–R18
 * (every other read route), MIX-cold (replay of bench/mix.json, response cache off), MIX-warm (the same list with the
 * response cache on and primed), and OPEN (fixed-rate open-loop latency at half of R1's and R4's measured maximum, p99
 * over --open-duration seconds, with the worst 5 s window beside it).
 * Realistic (a browser-like client, bench/realistic.ts): R1r, M1r, R4r beside B1r, B1gr and B0r, MIXr-cold and
 * MIXr-warm (response cache at its default TTL).
 * Prints Markdown tables, writes bench/results.json, the run's raw results as bench/results/<date>-<commit>.json and
 * (a run of every case) the chart docs/bench/results.svg.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { canPin, cleanupAll, pinSelf } from './children.js';
import { machine } from './system.js';
import { isLoopback } from './postgres.js';
import { runOnDatabase } from './database-run.js';
import { LOAD_CPU } from './servers.js';
import { measureLimiterOverhead } from '../src/limits/limits.overhead.js';
import { chartSvg } from './chart.js';
import { caseResults, chartRows, runFileName } from './results-file.js';
import { evaluate, gatesTable, summarise, type DatabaseKind, type DatabaseRun, type Goals } from './report.js';
import { runSection } from './report-text.js';
import { caseFilter } from './rounds.js';
import { REALISTIC_KEYS, REALISTIC_KEYS_MIN } from './realistic.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'open-duration': { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    slices: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    cases: { type: 'string' },
    keys: { type: 'string', default: String(REALISTIC_KEYS) },
    db: { type: 'string' },
    check: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

/** A bad command line: shown without a stack. */
class UsageError extends Error {}

function bounded(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

function databases(choice: string | undefined): DatabaseKind[] {
  const url = process.env.DATABASE_URL;
  const chosen = choice ?? (url ? 'both' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(chosen)) throw new UsageError('--db must be pglite, postgres or both');
  if (chosen !== 'pglite') {
    if (!url) throw new UsageError(`--db ${chosen} needs DATABASE_URL (a PostgreSQL server the bench may create a scratch database on)`);
    if (!isLoopback(url)) throw new UsageError('DATABASE_URL must point at this machine (127.0.0.1, localhost or a Unix socket)');
  }
  return chosen === 'both' ? ['pglite', 'postgres'] : [chosen as DatabaseKind];
}

/** --cases: a regular expression over case ids, whole ids (bench/rounds.ts caseFilter). */
function casesOption(pattern: string | undefined): (id: string) => boolean {
  try {
    return caseFilter(pattern);
  } catch (e) {
    throw new UsageError(`--cases is not a regular expression: ${(e as Error).message}`);
  }
}

async function main(): Promise<number> {
  if (args.help) {
    process.stdout.write(
      `${readFileSync(fileURLToPath(import.meta.url), 'utf8')
        .split('*/')[0]
        .replace(/^\/\*\*?|^ \* ?/gm, '')}\n`,
    );
    return 0;
  }
  const options = {
    duration: bounded('duration', args.duration!, 1, 120),
    warmup: bounded('warmup', args.warmup!, 0, 60),
    openDuration: bounded('open-duration', args['open-duration']!, 5, 300),
    rounds: bounded('rounds', args.rounds!, 1, 10),
    slices: bounded('slices', args.slices!, 1, 20),
    connections: bounded('connections', args.connections!, 1, 500),
    realisticKeys: bounded('keys', args.keys!, REALISTIC_KEYS_MIN, 100_000),
    selected: casesOption(args.cases),
    repoRoot,
    progress: (line: string) => process.stderr.write(`${line}\n`),
  };
  // autocannon needs about a second of load for a steady count; a shorter slice would measure its ramp-up.
  if (options.duration / options.slices < 1) throw new UsageError('--slices must leave at least 1 s per slice (--duration ÷ --slices)');
  const kinds = databases(args.db);
  const host = machine();
  const pinned = canPin && host.cores >= 2 && pinSelf(LOAD_CPU);
  const pinning = pinned ? `server + baselines on CPU 0, load generator on CPU 1 (taskset)` : `none (${canPin ? 'fewer than 2 CPUs' : 'no taskset'})`;
  // 35 stack-floor cases + MIX-cold + MIX-warm + OPEN × 2 (B0 without warm-up), 6 realistic cases + MIXr-cold + MIXr-warm,
  // plus about 90 s to seed, make the keys, count SQL and start the servers (every case; --cases runs fewer).
  const estimate = kinds.length * (39 * options.warmup + 45 * options.rounds * options.duration + 2 * options.duration + 90);
  options.progress(
    `bench: ${kinds.join(' + ')}, ${options.rounds} round(s) × ${options.duration} s per case in ${options.slices} slice(s), c=${options.connections}, pinning: ${pinning}; about ${(estimate / 60).toFixed(1)} min`,
  );

  const runs: DatabaseRun[] = [];
  for (const kind of kinds) runs.push(await runOnDatabase(kind, options));

  const goals = JSON.parse(readFileSync(new URL('./goals.json', import.meta.url), 'utf8')) as Goals;
  const gates = evaluate(goals, runs, readFileSync(new URL('../prisma/schema.prisma', import.meta.url), 'utf8'), options.selected);

  const out: string[] = [];
  const header = {
    ...host,
    pinning,
    connections: options.connections,
    warmup: options.warmup,
    duration: options.duration,
    rounds: options.rounds,
    slices: options.slices,
  };
  for (const run of runs) out.push(...runSection(run, header));
  // What the rate limiter adds to every API request: one check-and-count, in memory and (with REDIS_URL) on Redis.
  const limiter = await measureLimiterOverhead({ redisUrl: process.env.REDIS_URL });
  out.push(
    '### Rate limiter overhead per request (one check-and-count)',
    '',
    '| store | checks | mean µs | p50 µs | p99 µs |',
    '|---|--:|--:|--:|--:|',
    ...limiter.map((l) => `| ${l.store} | ${l.checks} | ${l.meanUs} | ${l.p50Us} | ${l.p99Us} |`),
    process.env.REDIS_URL ? '' : '\nSet REDIS_URL (e.g. redis://127.0.0.1:6379) to measure the Redis store too.',
    '',
  );
  out.push('### Goals (bench/goals.json)', '', gatesTable(gates), '');
  process.stdout.write(`${out.join('\n')}\n`);

  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout?.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src', 'bench', 'prisma'], { cwd: repoRoot, encoding: 'utf8' }).stdout?.trim();
  const cases = caseResults(runs);
  const results = {
    date: new Date().toISOString(),
    commit: dirty ? `${commit}+uncommitted` : commit,
    databases: runs.map((r) => r.database),
    cases,
    open: runs.flatMap((r) => r.open.map((o) => ({ database: r.database, ...o }))),
    generatedAt: new Date().toISOString(),
    machine: { ...host, pinning, pinned },
    options: {
      duration: options.duration,
      slices: options.slices,
      warmup: options.warmup,
      rounds: options.rounds,
      connections: options.connections,
      keys: options.realisticKeys,
      cases: args.cases ?? null,
    },
    runs: runs.map((run) => ({ ...run, summary: summarise(run) })),
    limiter,
    gates,
  };
  const text = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(new URL('./results.json', import.meta.url), text);
  // Every run's raw results, kept: commit them with the change they measured (docs/performance.md cites them).
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const runFile = runFileName(results);
  writeFileSync(new URL(`./results/${runFile}`, import.meta.url), text);
  options.progress(`wrote bench/results.json and bench/results/${runFile}`);
  if (args.cases) options.progress('--cases: docs/bench/results.svg left as it was (it charts whole runs)');
  else {
    mkdirSync(new URL('../docs/bench/', import.meta.url), { recursive: true });
    const title = `npm run bench, ${results.date.slice(0, 10)}, ${commit}, ${options.rounds} × ${options.duration} s, ${host.cores} cores (${pinning.split(' (')[0]})`;
    writeFileSync(new URL('../docs/bench/results.svg', import.meta.url), chartSvg(chartRows(cases), title));
    options.progress('wrote docs/bench/results.svg');
  }

  const failed = gates.filter((g) => !g.pass);
  if (args.check && failed.length) {
    options.progress(`--check: ${failed.length} gate(s) failed: ${failed.map((g) => `${g.goal} ${g.what}`).join('; ')}`);
    return 1;
  }
  return 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping child processes and removing temp dirs…\n`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

const code = await main().catch((e: Error) => {
  process.stderr.write(e instanceof UsageError ? `${e.message} (see --help)\n` : `bench failed: ${e.stack ?? e.message}\n`);
  return 2;
});
await cleanupAll();
process.exit(code);
