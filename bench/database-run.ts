import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, registerCleanup, registerTempDir, startNode, tail, type Child } from './children.js';
import { benchCases, loadGroups, checkGraph, checkSearch, discover, type BenchCase, type Send, type ServerName } from './cases.js';
import { measure, type Measurement, type RunOptions } from './load.js';
import { countStatements } from './sql-count.js';
import { MIX_CURSOR_SECRET, composition } from './mix.js';
import { answersOf, loadMix, measureMix, primeMix, sampleIndexes, type MixCursor, type MixMeasurement } from './mix-replay.js';
import { failureDetail, type OpenLoopJob, type OpenLoopResult } from './open-loop.js';
import { createScratchDatabase } from './postgres.js';
import { idleForeignLoad } from './system.js';
import type { CaseRun, DatabaseKind, DatabaseRun } from './report.js';
import { caseRun, failureText, headersFor, httpSender, loadRound, sameBody, selectCases } from './rounds.js';
import { databasePinning } from './database-cpu.js';
import { runRealistic } from './realistic-run.js';
import { REALISTIC_IDS } from './realistic.js';
import { baseEnv, LOAD_CPU, READY, SERVER_CPU, START_TIMEOUT_MS, FIRST_START_TIMEOUT_MS, WARM_SAMPLE } from './servers.js';
import { measureCompression } from './compression-levels.js';

/**
 * The server enforces the §8 limits per key (60 reads/min, 20 venue details/day). Unless it runs with raised numbers,
 * the load rotates this many partner keys round-robin: at 600 req/s each key then sees 18 requests a minute, and the
 * R3 runs (≤ 600 req/s × 39 s) stay under 20 details a day per key.
 */
const KEY_POOL = 2000;

/** X-RateLimit-Limit at or above this means the numbers are out of reach (BENCH=1 hook, UNREACHABLE_POLICY). */
const UNREACHABLE_LIMIT = 1_000_000;

/** Runs one OPEN case in a generator process of its own (bench/open-loop-process.ts), pinned beside this one. */
async function openLoopProcess(job: OpenLoopJob, repoRoot: string): Promise<OpenLoopResult> {
  const generator = startNode('OPEN generator', 'bench/open-loop-process.ts', {
    env: { ...baseEnv(), OPEN_LOOP_JOB: JSON.stringify(job) },
    cpu: LOAD_CPU,
    cwd: repoRoot,
  });
  try {
    const [, json] = await generator.waitFor(/OPEN_RESULT (.+)\n/, (job.warmupSeconds + job.seconds) * 1000 + START_TIMEOUT_MS);
    return JSON.parse(json) as OpenLoopResult;
  } finally {
    await generator.stop();
  }
}

/** One whole side-by-side run on one database: servers up, SQL counted, every case loaded for every round. */
export async function runOnDatabase(database: DatabaseKind, options: RunOptions): Promise<DatabaseRun> {
  const log = (line: string) => options.progress(`[${database}] ${line}`);
  const dir = registerTempDir(mkdtempSync(join(tmpdir(), 'wedding-bench-')));
  const dataDir = join(dir, 'data');
  let databaseUrl: string | undefined;
  if (database === 'postgres') {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    registerCleanup(scratch.drop);
    databaseUrl = scratch.url;
    log(`scratch database ${new URL(databaseUrl).pathname.slice(1)} created`);
  }

  const apiPort = await freePort();
  // BENCH=1 asks the server for out-of-reach rate limit numbers (where it supports that); the limiter still runs.
  const apiEnv = {
    ...baseEnv(),
    BENCH: '1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    PORT: String(apiPort),
    DATA_DIR: dataDir,
    // The MIX list's cursor pages are signed with this secret (bench/mix.ts).
    CURSOR_SECRET: MIX_CURSOR_SECRET,
    // Every case but MIX-warm measures the cold path: nothing answered from the response cache.
    RESPONSE_CACHE_TTL_SECONDS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const startApi = async (timeoutMs: number, env: Record<string, string | undefined> = apiEnv) => {
    const child = startNode('API server', 'dist/src/main.js', { env, cpu: SERVER_CPU, cwd: options.repoRoot });
    const ready = await child.waitFor(READY, timeoutMs);
    return { child, seconds: Number(ready[1]), demoKey: ready[2] ?? null };
  };

  log('first start (migrations + seed)…');
  const first = await startApi(FIRST_START_TIMEOUT_MS);
  log(`ready in ${first.seconds} s; demo key ${first.demoKey ? 'printed' : 'NOT printed'}`);
  let api: Child = first.child;
  const probe = await httpSender(apiPort, first.demoKey)({ method: 'GET', path: '/api/v1/venues?limit=1' });
  const perMinute = Number(probe.headers.get('x-ratelimit-limit') ?? NaN);
  const keyCount = perMinute >= UNREACHABLE_LIMIT ? 1 : KEY_POOL;
  const limits = Number.isFinite(perMinute) ? `${perMinute}/min per key` : 'no X-RateLimit-Limit header';
  log(`rate limits: ${limits} → ${keyCount === 1 ? 'one partner key' : `${keyCount} partner keys, rotated`}`);
  const realisticWanted = REALISTIC_IDS.some(options.selected);
  const created = Math.max(keyCount, realisticWanted ? options.realisticKeys : 0);

  // PGlite allows one process per data dir: count SQL with the server stopped, then copy the dir for B1 and restart.
  let b1DataDir: string | undefined;
  if (database === 'pglite') await api.stop();
  log(`creating ${created} key(s) and counting SQL statements in-process…`);
  const mix = loadMix();
  const countStarted = performance.now();
  const counted = await countStatements({ dataDir, databaseUrl }, created, { cursorSecret: MIX_CURSOR_SECRET, mix: mix.requests });
  log(`keys made and SQL counted in ${((performance.now() - countStarted) / 1000).toFixed(1)} s`);
  if (counted.mixSql?.failed.length)
    log(`WARNING MIX: ${counted.mixSql.failed.length} sampled request(s) failed in-process: ${counted.mixSql.failed[0]}`);
  if (database === 'pglite') {
    // openDatabase keeps PGlite's files under <DATA_DIR>/pglite; B1 starts its own database process on the copy.
    b1DataDir = join(dir, 'b1-data');
    cpSync(join(dataDir, 'pglite'), join(b1DataDir, 'pglite'), { recursive: true });
    api = (await startApi(START_TIMEOUT_MS)).child;
  }
  const keys = counted.keys.slice(0, keyCount);
  const sendApi = httpSender(apiPort, keys);
  const pinning = await databasePinning(database, databaseUrl);
  log(`database CPU: ${pinning.note}`);
  pinning.pin([api.pid]);

  const discovery = await discover(sendApi);
  const r1 = await sendApi({ method: 'GET', path: '/api/v1/venues?limit=20' });
  const r4 = await sendApi(benchCases(discovery).find((c) => c.id === 'R4')!.request);
  for (const [name, answer, check] of [
    ['R1', r1, checkSearch],
    ['R4', r4, checkGraph],
  ] as const) {
    const problem = check(answer);
    if (problem) throw new Error(`${name} answer unusable (${problem}): ${answer.text.slice(0, 300)}`);
  }
  const bodyFile = join(dir, 'b0-body.json');
  writeFileSync(bodyFile, r1.text);
  // What each compression level costs on these very bodies (src/http/conventions.ts DYNAMIC_COMPRESSION).
  const compression = await measureCompression({ R1: r1.text, R4: r4.text });

  const ports: Record<ServerName, number> = { api: apiPort, b0: await freePort(), b1: await freePort() };
  const b0 = startNode('B0', 'bench/baseline-server.ts', {
    env: { ...baseEnv(), PORT: String(ports.b0), BENCH_BASELINE: 'static', BODY_FILE: bodyFile },
    cpu: SERVER_CPU,
    cwd: options.repoRoot,
  });
  const b1 = startNode('B1', 'bench/baseline-server.ts', {
    env: {
      ...baseEnv(),
      PORT: String(ports.b1),
      BENCH_BASELINE: 'sql',
      BASE_URL: `http://localhost:${apiPort}`,
      BENCH_CURSOR_SECRET: MIX_CURSOR_SECRET,
      ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : { BENCH_DATA_DIR: b1DataDir! }),
    },
    cpu: SERVER_CPU,
    cwd: options.repoRoot,
  });
  await Promise.all([b0.waitFor(/listening/, START_TIMEOUT_MS), b1.waitFor(/listening/, START_TIMEOUT_MS)]);
  const children: Record<ServerName, Child> = { api, b0, b1 };
  const pids: Record<ServerName, number> = { api: api.pid, b0: b0.pid, b1: b1.pid };
  /** A server that died mid-run ends the run with its last output, rather than a bare "fetch failed". */
  const alive = (server: ServerName) => {
    const child = children[server];
    const exit = child.exit();
    if (exit) throw new Error(`${child.name} exited (${exit}) during the run; its last output:\n${tail(child.output())}`);
  };

  const sendB1 = httpSender(ports.b1, null);
  pinning.pin([b1.pid]);
  const sameBodies: Record<string, true | string> = {};
  const byId = new Map(benchCases(discovery).map((c) => [c.id, c]));
  // Every baseline against the API case it stands for: the same body, request_id aside.
  for (const c of benchCases(discovery).filter((x) => x.bodyOf)) {
    const reference = c.bodyOf === 'R1' ? r1 : c.bodyOf === 'R4' ? r4 : await sendApi(byId.get(c.bodyOf!)!.request);
    sameBodies[c.id] = sameBody(await sendB1(c.request), reference, c.bodyOf!);
    if (sameBodies[c.id] !== true) log(`WARNING ${c.id} body differs from the API's ${c.bodyOf}: ${sameBodies[c.id]}`);
  }

  const foreignIdle = await idleForeignLoad(Object.values(pids));
  const cases = selectCases(benchCases(discovery), options.selected);
  const runs: CaseRun[] = cases.map((c) => caseRun(c));
  const mixRun: CaseRun = {
    id: 'MIX-cold',
    label: `replay of bench/mix.json (${mix.requests.length} distinct reads)`,
    server: 'api',
    sameDataAs: null,
    rounds: [],
    problems: [],
  };
  const mixCursor: MixCursor = { next: 0 };
  const senders: Record<ServerName, Send> = { api: sendApi, b0: httpSender(ports.b0, null), b1: sendB1 };
  const loadOnce = (c: BenchCase, seconds: number) =>
    measure(
      {
        url: `http://127.0.0.1:${ports[c.server]}${c.request.path}`,
        method: c.request.method,
        headers: headersFor(c.request, c.server === 'api' ? keys[0] : null),
        body: c.request.body,
        keys: c.server === 'api' ? keys : [],
      },
      pids[c.server],
      { connections: c.connections ?? options.connections, duration: seconds },
      { databasePid: pinning.postgresPid },
    );

  /** One round of the MIX list from the cursor's place, on whichever API server is running now. */
  const replayMix = async (id: 'MIX-cold' | 'MIX-warm', cursor: MixCursor, round: number): Promise<MixMeasurement> => {
    alive('api');
    const m = await measureMix(
      { baseUrl: `http://127.0.0.1:${apiPort}`, keys },
      { entries: mix.file.entries, requests: mix.requests },
      cursor,
      api.pid,
      {
        connections: options.connections,
        duration: options.duration,
      },
      { databasePid: pinning.postgresPid },
    );
    alive('api');
    const failedEntries = m.failedEntries.map((f) => `#${f.entry} ${f.kind} → ${f.status}`).join(', ');
    log(
      `round ${round + 1}/${options.rounds} ${id} ${Math.round(m.rps)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${m.sent} sent (${m.repeats} repeats)${m.failures ? `, FAILED: ${failureText(m)}${failedEntries ? ` (${failedEntries})` : ''}` : ''}`,
    );
    return m;
  };

  const plan = {
    cases,
    runs,
    groups: loadGroups(cases),
    send: (c: BenchCase) => senders[c.server](c.request),
    load: loadOnce,
    alive,
    options,
    log,
  };
  const mixCold = options.selected('MIX-cold');
  for (let round = 0; round < options.rounds; round++) {
    await loadRound(round, plan);
    // MIX-cold: no warm-up (the cases above warmed the process; warming on the list would spend requests it must send cold).
    if (mixCold) mixRun.rounds.push(await replayMix('MIX-cold', mixCursor, round));
  }
  if (mixCold) runs.push(mixRun);

  // OPEN: a fixed arrival rate at half of the measured maximum (median over rounds), REST R1 and GraphQL R4.
  const open: DatabaseRun['open'] = [];
  const medianRps = (id: string) => {
    const rps = (runs.find((r) => r.id === id)?.rounds ?? [])
      .filter((x): x is Measurement => x !== null)
      .map((x) => x.rps)
      .sort((a, b) => a - b);
    return rps.length ? rps[rps.length >> 1] : null;
  };
  for (const [id, caseId] of [
    ['OPEN-rest', 'R1'],
    ['OPEN-gql', 'R4'],
  ] as const) {
    if (!options.selected(id)) continue;
    const max = medianRps(caseId);
    if (!max) {
      log(`${id}: skipped (${caseId} has no measured maximum)`);
      continue;
    }
    alive('api');
    const rate = Math.max(1, max / 2);
    // Like every closed-loop case, a warm-up at the measured load first: the server comes to OPEN from MIX-cold's 50
    // connections (or from OPEN-rest), and the old generation that load promoted is not this rate's to pay for.
    const o = await openLoopProcess(
      {
        target: { port: apiPort, key: keys[0] },
        request: byId.get(caseId)!.request,
        rate,
        warmupSeconds: options.warmup,
        seconds: options.openDuration,
      },
      options.repoRoot,
    );
    open.push({ ...o, id, case: caseId, rateBasis: `½ × ${caseId} ${Math.round(max)}/s` });
    log(
      `${id} ${caseId} at ${rate.toFixed(1)}/s for ${o.seconds} s: p50 ${o.p50Ms} ms, p90 ${o.p90Ms} ms, p99 ${o.p99Ms} ms (worst ${o.windowSeconds} s: ${o.worstWindowP99Ms}), max ${o.maxMs} ms, ${o.failures} failed${failureDetail(o)}`,
    );
  }

  // MIX-warm: the same list on the same server restarted with its response cache on (§8.10's 5 minutes), primed by
  // one pass over the whole list; a sample of its answers must equal the cold server's.
  let warm: NonNullable<DatabaseRun['mix']>['warm'] = null;
  if (options.selected('MIX-warm')) {
    const sample = sampleIndexes(mix.requests.length, WARM_SAMPLE);
    const coldAnswers = await answersOf(sendApi, mix.requests, sample);
    await api.stop();
    api = (await startApi(START_TIMEOUT_MS, { ...apiEnv, RESPONSE_CACHE_TTL_SECONDS: '300' })).child;
    // alive('api') and the CPU samples must follow the restarted server, not the stopped one (which exited 0).
    children.api = api;
    pids.api = api.pid;
    pinning.pin([api.pid]);
    const primed = await primeMix(sendApi, mix.requests, options.connections);
    log(`MIX-warm: primed with ${primed.sent} requests in ${primed.seconds.toFixed(1)} s (${primed.failed} failed)`);
    const warmAnswers = await answersOf(sendApi, mix.requests, sample);
    const differing = sample.filter((_, i) => warmAnswers[i].text !== coldAnswers[i].text);
    const hits = warmAnswers.filter((a) => a.cache === 'HIT').length;
    const warmRun: CaseRun = {
      id: 'MIX-warm',
      label: 'the same list, response cache on and primed',
      server: 'api',
      sameDataAs: null,
      rounds: [],
      problems: [],
    };
    if (differing.length)
      warmRun.problems.push(`${differing.length} of ${sample.length} sampled answers differ from the cold server's, e.g. entry #${differing[0]}`);
    const warmCursor: MixCursor = { next: 0 };
    for (let round = 0; round < options.rounds; round++) {
      warmRun.rounds.push(await replayMix('MIX-warm', warmCursor, round));
    }
    runs.push(warmRun);
    warm = { primeSeconds: primed.seconds, sampled: sample.length, identical: sample.length - differing.length, hits };
    log(`MIX-warm: ${warm.identical} of ${warm.sampled} sampled answers identical to the cold server's, ${hits} of them cache hits`);
  }

  await Promise.all([api.stop(), b0.stop(), b1.stop()]);

  // The realistic profile, on the same data with servers of its own (bench/realistic-run.ts).
  const realistic = realisticWanted
    ? await runRealistic({
        database,
        options,
        log,
        dataDir,
        b1DataDir,
        databaseUrl,
        bodyFile,
        discovery,
        keys: counted.keys.slice(0, options.realisticKeys),
        mix,
        pinning,
        floorEnv: apiEnv,
      })
    : null;
  if (realistic) {
    runs.push(...realistic.runs);
    Object.assign(sameBodies, realistic.sameBodies);
  }
  return {
    database,
    firstStartSeconds: first.seconds,
    demoKeyPrinted: first.demoKey !== null,
    rateLimits: { reported: limits, keys: keyCount },
    foreignIdle,
    sameBodies,
    statementCounts: counted.counts,
    cases: runs,
    mix: {
      entries: mix.requests.length,
      composition: composition(mix.file.entries),
      sent: mixCursor.next,
      repeats: Math.max(0, mixCursor.next - mix.requests.length),
      sql: counted.mixSql ?? { sampled: 0, statements: 0, perRequest: 0, failed: [] },
      warm,
    },
    open,
    databaseCpu: { pinned: pinning.pinned, note: pinning.note },
    compression,
    realistic: realistic?.summary ?? null,
  };
}
