/** What the stack-floor and realistic phases share: sending to a child server, comparing bodies, one round of loads. */
import { answerOf, type Answer, type BenchCase, type BenchRequest, type Send, type ServerName } from './cases.js';
import { combineMeasurements, type Measurement } from './load.js';
import type { CaseRun } from './report.js';

/** Sends to a child server over loopback HTTP: the keys in turn (or a header set per request), plus fixed headers. */
export function httpSender(port: number, keys: string | string[] | null, next: () => Record<string, string> = () => ({})): Send {
  const pool = keys === null ? [] : Array.isArray(keys) ? keys : [keys];
  let turn = 0;
  return async (request: BenchRequest): Promise<Answer> => {
    const key = pool.length ? pool[turn++ % pool.length] : null;
    return answerOf(
      await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        headers: { ...next(), ...headersFor(request, key) },
        body: request.body,
      }),
    );
  };
}

export function headersFor(request: BenchRequest, key: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (request.body) headers['content-type'] = 'application/json';
  return { ...headers, ...request.headers };
}

/** null when equal apart from request_id; otherwise where they first differ. */
export function bodyDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null))
    return `${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
  if (a && typeof a === 'object') {
    const ka = Object.keys(a).filter((k) => k !== 'request_id');
    const kb = Object.keys(b as object).filter((k) => k !== 'request_id');
    if (ka.join() !== kb.join()) return `${path}: keys [${ka}] vs [${kb}]`;
    for (const k of ka) {
      const d = bodyDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** A baseline's answer against its API case's: true when the same body (request_id aside), else what differs. */
export function sameBody(answer: Answer, reference: Answer, bodyOf: string): true | string {
  return (
    (answer.status === 200 && reference.status !== 200 && `the API answered ${bodyOf} with ${reference.status}`) ||
    (answer.status === 200 && bodyDifference(answer.json, reference.json)) ||
    (answer.status === 200 ? true : `status ${answer.status}: ${answer.text.slice(0, 200)}`)
  );
}

export function failureText(m: Measurement): string {
  const statuses = Object.entries(m.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${n}× ${code}`);
  if (m.errors) statuses.push(`${m.errors} errors`);
  if (m.timeouts) statuses.push(`${m.timeouts} timeouts (10 s)`);
  return statuses.join(', ');
}

export interface RoundPlan {
  /** The cases, their runs (same order) and their groups (indexes into cases: loadGroups). */
  cases: BenchCase[];
  runs: CaseRun[];
  groups: number[][];
  /** One request of a case to its server (the body check, and the request that lets a slow slice drain). */
  send: (c: BenchCase) => Promise<Answer>;
  /** `seconds` of load of a case. */
  load: (c: BenchCase, seconds: number) => Promise<Measurement>;
  /** Throws with a server's last output when it is no longer running. */
  alive: (server: ServerName) => void;
  options: { warmup: number; duration: number; slices: number; rounds: number };
  log: (line: string) => void;
}

/**
 * One round: each group's cases checked (a bad answer is not loaded), warmed up in the first round, then loaded in
 * turns, a slice each, until each has had `duration` seconds: a baseline and the cases compared with it then share
 * the host's fast and slow spells instead of each meeting its own.
 */
export async function loadRound(round: number, plan: RoundPlan): Promise<void> {
  const { cases, runs, options, log } = plan;
  const sliceSeconds = options.duration / options.slices;
  for (const group of plan.groups) {
    const loaded: number[] = [];
    for (const i of group) {
      const c = cases[i];
      plan.alive(c.server);
      const answer = await plan.send(c).catch((e: Error) => {
        plan.alive(c.server);
        throw e;
      });
      const problem = c.check(answer);
      if (problem) {
        runs[i].rounds.push(null);
        runs[i].problems.push(`round ${round + 1}: ${problem}`);
        log(`round ${round + 1}/${options.rounds} ${c.id}: body check failed (${problem}); not loaded`);
        continue;
      }
      // A static body has nothing to warm (no JIT-heavy path, no database cache); B0r compresses and logs, so it has.
      if (round === 0 && options.warmup > 0 && c.id !== 'B0') await plan.load(c, options.warmup);
      loaded.push(i);
    }
    const slices = new Map<number, Measurement[]>(loaded.map((i) => [i, []]));
    for (let slice = 0; slice < options.slices; slice++) {
      for (const i of loaded) {
        const c = cases[i];
        slices.get(i)!.push(await plan.load(c, sliceSeconds));
        plan.alive(c.server);
        // The load stops sending, but a slow route (R12's cost benchmarks) leaves requests the server is still
        // working through; one more request of the same case answers after them, so the next slice starts idle.
        await plan.send(c).catch(() => undefined);
      }
    }
    for (const i of loaded) {
      const m = combineMeasurements(slices.get(i)!);
      runs[i].rounds.push(m);
      const failed = m.failures ? `, FAILED: ${failureText(m)}` : '';
      const database = typeof m.databaseCpuMicrosPerRequest === 'number' ? ` (database ${Math.round(m.databaseCpuMicrosPerRequest)})` : '';
      log(
        `round ${round + 1}/${options.rounds} ${cases[i].id.padEnd(3)} ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms, ${m.cpuMicrosPerRequest === null ? '?' : Math.round(m.cpuMicrosPerRequest)} µs CPU/req${database}${failed}`,
      );
    }
  }
}

/** A CaseRun for a case, before its first round. */
export function caseRun(c: BenchCase, profile?: CaseRun['profile']): CaseRun {
  return {
    id: c.id,
    label: c.label,
    server: c.server,
    sameDataAs: c.sameDataAs,
    ...(c.statements === undefined ? {} : { statements: c.statements }),
    ...(profile ? { profile } : {}),
    rounds: [],
    problems: [],
  };
}

/**
 * A filter over case ids (--cases): the ids the pattern matches, and the baselines those are compared with, and B0
 * (every run reports it). No pattern: every case.
 */
export function caseFilter(pattern: string | undefined): (id: string) => boolean {
  if (!pattern) return () => true;
  const wanted = new RegExp(`^(?:${pattern})$`);
  return (id) => wanted.test(id);
}

/** The cases a filter keeps: those it names, the baselines they are compared with, and B0 / B0r with their profile. */
export function selectCases(cases: BenchCase[], selected: (id: string) => boolean): BenchCase[] {
  const named = cases.filter((c) => selected(c.id));
  if (!named.length) return [];
  const baselines = new Set(named.map((c) => c.sameDataAs));
  return cases.filter((c) => selected(c.id) || c.server === 'b0' || (c.server === 'b1' && baselines.has(c.id as never)));
}
