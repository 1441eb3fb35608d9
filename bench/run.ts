/**
 * `npm run bench`: the API and its baselines side by side in one run (performance.md §5).
 *
 *   npm run bench                                  3 rounds × (3 s warm-up + 10 s) per case, PGlite (+ PostgreSQL when DATABASE_URL is set)
 *   npm run bench -- --duration 5 --rounds 1       quick run (its round measures R1g before GraphQL's path is warm;
 *                                                  the gates' medians need 3 rounds: docs/performance.md, stop 38)
 *   npm run bench -- --check                       also exit 1 when a gate of bench/goals.json fails
 *   npm run bench -- --db postgres                 only PostgreSQL (DATABASE_URL); --db pglite | both
 *   npm run bench -- --open-duration 60            OPEN's measured seconds (default 30, after --warmup at its rate)
 *   npm run bench -- --slices 1                    each case's seconds in one stretch (default 5 turns, taken in turn
 *                                                  with its baseline and the other cases compared with it)
 *
 * Cases: B0 and the hand-written baselines (one per API case with a body of its own: B1, B1g, B1d, B1v, B1vd, B1c,
 * B1pe, B1rr, B1cb, B1i, B1id, B1bl, B1bd, B1bt, B1k), R1–R7, M1, R8–R18 (every other read route), MIX-cold (replay of bench/mix.json, response cache off), MIX-warm (the same
 * list with the response cache on and primed), and OPEN (fixed-rate open-loop latency at half of R1's and R4's measured maximum, p99 over
 * --open-duration seconds, with the worst 5 s window beside it).
 * Prints Markdown tables, writes bench/results.json and the chart docs/bench/results.svg.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { canPin, cleanupAll, pinSelf } from './children.js';
import { machine } from './system.js';
import { isLoopback } from './postgres.js';
import { LOAD_CPU, runOnDatabase } from './database-run.js';
import { measureLimiterOverhead } from '../src/limits/limits.overhead.js';
import { chartSvg } from './chart.js';
import { caseResults, chartRows } from './results-file.js';
import { evaluate, gatesTable, markdownTable, openTable, summarise, type DatabaseKind, type DatabaseRun, type Goals } from './report.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'open-duration': { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    slices: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
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
    repoRoot,
    progress: (line: string) => process.stderr.write(`${line}\n`),
  };
  // autocannon needs about a second of load for a steady count; a shorter slice would measure its ramp-up.
  if (options.duration / options.slices < 1) throw new UsageError('--slices must leave at least 1 s per slice (--duration ÷ --slices)');
  const kinds = databases(args.db);
  const host = machine();
  const pinned = canPin && host.cores >= 2 && pinSelf(LOAD_CPU);
  const pinning = pinned ? `server + baselines on CPU 0, load generator on CPU 1 (taskset)` : `none (${canPin ? 'fewer than 2 CPUs' : 'no taskset'})`;
  // 35 cases + MIX-cold + MIX-warm + OPEN × 2 (B0 without warm-up) plus about 60 s to seed, count SQL and start the servers.
  const estimate = kinds.length * (34 * options.warmup + 37 * options.rounds * options.duration + 2 * options.duration + 60);
  options.progress(
    `bench: ${kinds.join(' + ')}, ${options.rounds} round(s) × ${options.duration} s per case in ${options.slices} slice(s), c=${options.connections}, pinning: ${pinning}; about ${(estimate / 60).toFixed(1)} min`,
  );

  const runs: DatabaseRun[] = [];
  for (const kind of kinds) runs.push(await runOnDatabase(kind, options));

  const goals = JSON.parse(readFileSync(new URL('./goals.json', import.meta.url), 'utf8')) as Goals;
  const gates = evaluate(goals, runs, readFileSync(new URL('../prisma/schema.prisma', import.meta.url), 'utf8'));

  const out: string[] = [];
  for (const run of runs) {
    const idle = run.foreignIdle
      ? `${run.foreignIdle.cores.toFixed(2)} cores (steal ${run.foreignIdle.stealCores.toFixed(2)})`
      : 'unknown (no /proc)';
    out.push(
      `### ${run.database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}`,
      '',
      `Node ${host.node} · ${host.cpuModel} · ${host.cores} cores · pinning: ${pinning} · database: ${run.database === 'pglite' ? "PGlite in the server's embedded database process (its CPU is in CPU µs/req)" : 'PostgreSQL (its CPU is not in CPU µs/req)'} · ` +
        `foreign CPU load (1 s idle sample): ${idle} · rate limits: ${run.rateLimits.reported}, ${run.rateLimits.keys} key(s) · c=${options.connections}, ${options.warmup} s warm-up, ${options.duration} s × ${options.rounds} round(s) in ${options.slices} interleaved slice(s)`,
      '',
      markdownTable(run),
      '',
      `×B0: req/s ÷ B0 (static copy of R1's body) in the same round, median over rounds. ×B1: ÷ the hand-written SQL baseline with the same data ` +
        `(B1 = R1's body, B1g = R4's, B1d = R3's, B1v = R6's, and B1vd … B1k = R8 … R18's, bench/cases.ts). Bodies identical to the API's (request_id aside): ${Object.entries(
          run.sameBodies,
        )
          .map(([k, v]) => `${k} ${v === true ? 'yes' : `NO (${v})`}`)
          .join(', ')}. ` +
        `SQL/req: statements of one request counted in-process, including 1 for the API key lookup. Failures: non-2xx, errors and timeouts under load.`,
      '',
      ...(run.mix
        ? [
            `MIX-cold: ${run.mix.entries} distinct requests (${Object.entries(run.mix.composition)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ')}); ${run.mix.sent} sent over the rounds, ${run.mix.repeats} of them repeats (only once the list wraps). ` +
              `SQL/req ${run.mix.sql.perRequest} = mean over ${run.mix.sql.sampled} evenly spaced entries counted in-process` +
              `${run.mix.sql.failed.length ? ` (${run.mix.sql.failed.length} failed in-process)` : ''}. MIX-warm: the same server restarted with its response cache on, primed by one pass over the list in ${run.mix.warm.primeSeconds.toFixed(1)} s; ` +
              `${run.mix.warm.identical} of ${run.mix.warm.sampled} sampled answers identical to the cold server's (${run.mix.warm.hits} of them hits).`,
            '',
          ]
        : []),
      '#### OPEN: latency at a fixed arrival rate (open loop, timed from the scheduled send)',
      '',
      openTable(run),
      '',
    );
  }
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
    options: { duration: options.duration, slices: options.slices, warmup: options.warmup, rounds: options.rounds, connections: options.connections },
    runs: runs.map((run) => ({ ...run, summary: summarise(run) })),
    limiter,
    gates,
  };
  writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  options.progress('wrote bench/results.json');
  mkdirSync(new URL('../docs/bench/', import.meta.url), { recursive: true });
  const title = `npm run bench, ${results.date.slice(0, 10)}, ${commit}, ${options.rounds} × ${options.duration} s, ${host.cores} cores (${pinning.split(' (')[0]})`;
  writeFileSync(new URL('../docs/bench/results.svg', import.meta.url), chartSvg(chartRows(cases), title));
  options.progress('wrote docs/bench/results.svg');

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
