/**
 * The realistic phase of a database run (bench/realistic.ts says what it measures): after the stack floor's servers
 * have stopped, the API as deployed (its response cache off) and the realistic baselines, on the same data, loaded
 * round by round like the stack floor (bench/rounds.ts), MIXr-cold after each round; then the API restarted with its
 * response cache at the default TTL, primed, for MIXr-warm.
 */
import { freePort, startNode, tail, type Child } from './children.js';
import { loadGroups, type BenchCase, type BenchRequest, type Discovery, type Send, type ServerName } from './cases.js';
import { createRotation, measure } from './load.js';
import { answersOf, measureMix, primeMix, sampleIndexes, type MixCursor, type MixMeasurement } from './mix-replay.js';
import type { MixFile } from './mix.js';
import { MIX_CURSOR_SECRET } from './mix.js';
import type { CaseRun, DatabaseKind, RealisticSummary } from './report.js';
import { caseRun, failureText, headersFor, httpSender, loadRound, sameBody, selectCases } from './rounds.js';
import { clientAddress, realisticApiEnv, realisticCases, REALISTIC_HEADERS, REALISTIC_ORIGIN } from './realistic.js';
import { baseEnv, READY, SERVER_CPU, START_TIMEOUT_MS, WARM_SAMPLE } from './servers.js';
import type { DatabasePinning } from './database-cpu.js';
import type { RunOptions } from './load.js';

export interface RealisticContext {
  database: DatabaseKind;
  options: RunOptions;
  log: (line: string) => void;
  dataDir: string;
  /** PGlite: the copy of the data directory the baselines' database process runs on. */
  b1DataDir: string | undefined;
  databaseUrl: string | undefined;
  /** R1's body, for B0r. */
  bodyFile: string;
  discovery: Discovery;
  /** The pool rotated (≥ 500 keys, made in bench/sql-count.ts as the stack floor's key is). */
  keys: string[];
  mix: { file: MixFile; requests: BenchRequest[] };
  pinning: DatabasePinning;
  /** The stack floor's API environment, which realisticApiEnv turns into the deployed one. */
  floorEnv: NodeJS.ProcessEnv;
}

export async function runRealistic(
  ctx: RealisticContext,
): Promise<{ runs: CaseRun[]; sameBodies: Record<string, true | string>; summary: RealisticSummary } | null> {
  const { options } = ctx;
  const log = (line: string) => ctx.log(`realistic: ${line}`);
  const cases = selectCases(realisticCases(ctx.discovery), options.selected);
  const mixCold = options.selected('MIXr-cold');
  const mixWarm = options.selected('MIXr-warm');
  if (!cases.length && !mixCold && !mixWarm) return null;

  const apiPort = await freePort();
  const envOf = (responseCache: boolean) => ({ ...realisticApiEnv(ctx.floorEnv, { responseCache }), PORT: String(apiPort) });
  const startApi = async (env: NodeJS.ProcessEnv) => {
    const child = startNode('API server (realistic)', 'dist/src/main.js', { env, cpu: SERVER_CPU, cwd: options.repoRoot });
    await child.waitFor(READY, START_TIMEOUT_MS);
    ctx.pinning.pin([child.pid]);
    return child;
  };
  let api = await startApi(envOf(false));
  // One rotation for every load of the phase: a key (and its client address) comes round again only after the whole
  // pool, so at N keys and R req/s each sends R / N requests a second.
  const rotation = createRotation(ctx.keys, (i) => ({ 'x-forwarded-for': clientAddress(i) }));
  const nextHeaders = () => ({ ...REALISTIC_HEADERS, ...rotation.headersAt(rotation.next++ % rotation.size) });
  const sendApi = httpSender(apiPort, null, nextHeaders);

  const ports: Record<ServerName, number> = { api: apiPort, b0: await freePort(), b1: await freePort() };
  const baselineEnv = { ...baseEnv(), BENCH_REALISTIC: '1', BENCH_CORS_ORIGINS: REALISTIC_ORIGIN };
  const baselines = cases.length
    ? {
        b0: startNode('B0r', 'bench/baseline-server.ts', {
          env: { ...baselineEnv, PORT: String(ports.b0), BENCH_BASELINE: 'static', BODY_FILE: ctx.bodyFile },
          cpu: SERVER_CPU,
          cwd: options.repoRoot,
        }),
        b1: startNode('B1r', 'bench/baseline-server.ts', {
          env: {
            ...baselineEnv,
            PORT: String(ports.b1),
            BENCH_BASELINE: 'sql',
            BASE_URL: `http://localhost:${apiPort}`,
            BENCH_CURSOR_SECRET: MIX_CURSOR_SECRET,
            ...(ctx.databaseUrl ? { BENCH_DATABASE_URL: ctx.databaseUrl } : { BENCH_DATA_DIR: ctx.b1DataDir! }),
          },
          cpu: SERVER_CPU,
          cwd: options.repoRoot,
        }),
      }
    : null;
  if (baselines) {
    await Promise.all([baselines.b0.waitFor(/listening/, START_TIMEOUT_MS), baselines.b1.waitFor(/listening/, START_TIMEOUT_MS)]);
    ctx.pinning.pin([baselines.b1.pid]);
  }
  const children: Partial<Record<ServerName, Child>> = { api, ...baselines };
  const alive = (server: ServerName) => {
    const child = children[server]!;
    const exit = child.exit();
    if (exit) throw new Error(`${child.name} exited (${exit}) during the run; its last output:\n${tail(child.output())}`);
  };
  const senders: Record<ServerName, Send> = {
    api: sendApi,
    b0: httpSender(ports.b0, null, nextHeaders),
    b1: httpSender(ports.b1, null, nextHeaders),
  };

  // Each realistic baseline against its API case: the same body (request_id aside), decoded from the same encoding.
  const sameBodies: Record<string, true | string> = {};
  const byId = new Map(cases.map((c) => [c.id, c]));
  for (const c of cases.filter((x) => x.bodyOf && byId.has(x.bodyOf))) {
    const [reference, answer] = [await sendApi(byId.get(c.bodyOf!)!.request), await senders.b1(c.request)];
    const encodings = `${reference.headers.get('content-encoding')} / ${answer.headers.get('content-encoding')}`;
    sameBodies[c.id] = encodings === 'br / br' ? sameBody(answer, reference, c.bodyOf!) : `content-encoding (API / baseline): ${encodings}`;
    if (sameBodies[c.id] !== true) log(`WARNING ${c.id} answer differs from the API's ${c.bodyOf}: ${sameBodies[c.id]}`);
  }

  const runs = cases.map((c) => caseRun(c, 'realistic'));
  const loadOnce = (c: BenchCase, seconds: number) =>
    measure(
      {
        url: `http://127.0.0.1:${ports[c.server]}${c.request.path}`,
        method: c.request.method,
        headers: headersFor(c.request, null),
        body: c.request.body,
        keys: [],
        rotation,
      },
      children[c.server]!.pid,
      { connections: c.connections ?? options.connections, duration: seconds },
      { databasePid: ctx.pinning.postgresPid, stdoutLines: children[c.server]!.stdoutLines },
    );
  const replay = async (id: 'MIXr-cold' | 'MIXr-warm', cursor: MixCursor, round: number, seconds = options.duration): Promise<MixMeasurement> => {
    alive('api');
    const m = await measureMix(
      { baseUrl: `http://127.0.0.1:${apiPort}`, keys: [], headers: REALISTIC_HEADERS, rotation },
      { entries: ctx.mix.file.entries, requests: ctx.mix.requests },
      cursor,
      api.pid,
      { connections: options.connections, duration: seconds },
      { databasePid: ctx.pinning.postgresPid, stdoutLines: api.stdoutLines },
    );
    alive('api');
    log(
      `${round < 0 ? 'warm-up' : `round ${round + 1}/${options.rounds}`} ${id} ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms, ${m.cpuMicrosPerRequest === null ? '?' : Math.round(m.cpuMicrosPerRequest)} µs CPU/req${m.failures ? `, FAILED: ${failureText(m)}` : ''}`,
    );
    return m;
  };

  /**
   * One request answered after those a replay left in progress (autocannon stops sending, the server works on), so
   * that their CPU and log lines stay out of the next load, on this server or another on its CPU.
   */
  const drainApi = () => sendApi({ method: 'GET', path: '/api/v1/venues?limit=1' }).catch(() => undefined);
  const plan = { cases, runs, groups: loadGroups(cases), send: (c: BenchCase) => senders[c.server](c.request), load: loadOnce, alive, options, log };
  const mixRun = (id: 'MIXr-cold' | 'MIXr-warm', label: string): CaseRun => ({
    id,
    label,
    server: 'api',
    sameDataAs: null,
    profile: 'realistic',
    rounds: [],
    problems: [],
  });
  const coldRun = mixRun('MIXr-cold', 'MIX-cold as a browser sends it (response cache off)');
  const coldCursor: MixCursor = { next: 0 };
  for (let round = 0; round < options.rounds; round++) {
    await loadRound(round, plan);
    if (!mixCold) continue;
    // The stack floor's MIX-cold comes after every route has been loaded; this server has served three. A warm-up on
    // the list's second half (the rounds send from its start, and with the cache off nothing is kept) runs every
    // route's code first, as MIX-cold's server had.
    if (round === 0 && options.warmup > 0) {
      await replay('MIXr-cold', { next: ctx.mix.requests.length >> 1 }, -1, options.warmup);
      await drainApi();
    }
    coldRun.rounds.push(await replay('MIXr-cold', coldCursor, round));
    await drainApi();
  }
  if (mixCold) runs.push(coldRun);

  let warm: RealisticSummary['warm'] = null;
  if (mixWarm) {
    const sample = sampleIndexes(ctx.mix.requests.length, WARM_SAMPLE);
    const coldAnswers = await answersOf(sendApi, ctx.mix.requests, sample);
    await api.stop();
    api = await startApi(envOf(true));
    children.api = api;
    const primed = await primeMix(sendApi, ctx.mix.requests, options.connections);
    log(`MIXr-warm: primed with ${primed.sent} requests in ${primed.seconds.toFixed(1)} s (${primed.failed} failed)`);
    const warmAnswers = await answersOf(sendApi, ctx.mix.requests, sample);
    const differing = sample.map((entry, i) => ({ entry, i })).filter(({ i }) => warmAnswers[i].text !== coldAnswers[i].text);
    const warmRun = mixRun('MIXr-warm', 'the same list as a browser sends it, response cache at its default TTL, primed');
    if (differing.length) {
      const { entry, i } = differing[0];
      warmRun.problems.push(
        `${differing.length} of ${sample.length} sampled answers differ from the cold server's, e.g. entry #${entry}: ` +
          `${warmAnswers[i].text.slice(0, 120)} … vs ${coldAnswers[i].text.slice(0, 120)} …`,
      );
    }
    const warmCursor: MixCursor = { next: 0 };
    for (let round = 0; round < options.rounds; round++) warmRun.rounds.push(await replay('MIXr-warm', warmCursor, round));
    runs.push(warmRun);
    warm = {
      primeSeconds: primed.seconds,
      sampled: sample.length,
      identical: sample.length - differing.length,
      hits: warmAnswers.filter((a) => a.cache === 'HIT').length,
    };
    log(`MIXr-warm: ${warm.identical} of ${warm.sampled} sampled answers identical to the cold server's, ${warm.hits} of them cache hits`);
  }

  await Promise.all(Object.values(children).map((child) => child!.stop()));
  return {
    runs,
    sameBodies,
    summary: {
      keys: ctx.keys.length,
      origin: REALISTIC_ORIGIN,
      acceptEncoding: REALISTIC_HEADERS['accept-encoding'],
      requestsSent: rotation.next,
      warm,
    },
  };
}
