import autocannon from 'autocannon';
import { embeddedDatabaseCpuMicros, processCpuMicros, systemCpuMicros } from './children.js';

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /**
   * API keys to send round-robin as `Authorization: Bearer` (one request each in turn), so per-key rate limits
   * are never reached; empty for the baselines.
   */
  keys: string[];
  /**
   * Instead of `keys`: one rotation shared by every load of a phase (the realistic cases), so a key's next request
   * comes a whole turn of the pool later however the load is cut into slices and cases.
   */
  rotation?: Rotation;
}

/** Headers that change from request to request (a key and a client address), taken in turn across loads. */
export interface Rotation {
  /** How many distinct header sets there are (the key pool's size). */
  size: number;
  /** The next turn; advanced by every request sent with this rotation. */
  next: number;
  /** The headers of turn `i` (0 ≤ i < size). */
  headersAt: (i: number) => Record<string, string>;
}

export function createRotation(keys: string[], extra: (i: number) => Record<string, string> = () => ({})): Rotation {
  return { size: keys.length, next: 0, headersAt: (i) => ({ authorization: `Bearer ${keys[i]}`, ...extra(i) }) };
}

/** What else to sample beside the server's CPU. */
export interface MeasureExtras {
  /** PostgreSQL's server process (its backends are its children): its CPU is the database's. */
  databasePid?: number | null;
  /** The server's stdout lines so far (its log lines, read from the pipe). */
  stdoutLines?: () => number;
}

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
}

/** A bench run's settings (npm run bench, bench/run.ts). */
export interface RunOptions extends LoadOptions {
  rounds: number;
  /** Turns a round's `duration` is cut into, per case, interleaved with the other cases of its group (loadGroups). */
  slices: number;
  /** Seconds of load before each case's first round, not recorded. */
  warmup: number;
  /** Seconds the OPEN schedule is measured for (after `warmup` seconds at the same rate). */
  openDuration: number;
  repoRoot: string;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
  /** Which cases run (--cases; bench/rounds.ts caseFilter): every one when it matches every id. */
  selected: (id: string) => boolean;
  /** Keys (and client addresses) the realistic cases rotate. */
  realisticKeys: number;
}

/** One closed-loop autocannon run against one server process. */
export interface Measurement {
  /** 2xx responses per second: failures never count as throughput. */
  rps: number;
  ok: number;
  /** Non-2xx responses, socket errors and timeouts. */
  failures: number;
  /** Socket errors other than timeouts. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU (user + system, from /proc) per completed response, µs; null without /proc. */
  cpuMicrosPerRequest: number | null;
  /**
   * The database's CPU per completed response, µs: on PGlite the embedded database process (a descendant of the
   * server, so part of cpuMicrosPerRequest too), on PostgreSQL its server's processes (not part of it); null unknown.
   */
  databaseCpuMicrosPerRequest?: number | null;
  /** Lines the server wrote to its stdout pipe per completed response (log lines); absent when not sampled. */
  logLinesPerRequest?: number | null;
  /** CPU used by everything except the server and this process during the run, in cores; null without /proc. */
  foreignCores: number | null;
  seconds: number;
}

function rotateKeys(keys: string[]) {
  let next = 0;
  return (request: { headers?: Record<string, string> }) => {
    next = (next + 1) % keys.length;
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${keys[next]}` } };
  };
}

function rotate(rotation: Rotation) {
  return (request: { headers?: Record<string, string> }) => {
    const turn = rotation.next++ % rotation.size;
    return { ...request, headers: { ...request.headers, ...rotation.headersAt(turn) } };
  };
}

export async function measure(target: LoadTarget, serverPid: number, options: LoadOptions, extras: MeasureExtras = {}): Promise<Measurement> {
  const serverBefore = processCpuMicros(serverPid);
  const embeddedBefore = embeddedDatabaseCpuMicros(serverPid);
  const databaseBefore = extras.databasePid ? processCpuMicros(extras.databasePid) : null;
  const linesBefore = extras.stdoutLines?.();
  const systemBefore = systemCpuMicros();
  const selfBefore = process.cpuUsage();
  const setupRequest = target.rotation ? rotate(target.rotation) : target.keys.length > 1 ? rotateKeys(target.keys) : null;
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    requests: setupRequest ? [{ setupRequest }] : undefined,
    connections: options.connections,
    duration: options.duration,
    pipelining: 1,
    timeout: 10,
  });
  const serverAfter = processCpuMicros(serverPid);
  const embeddedAfter = embeddedDatabaseCpuMicros(serverPid);
  const databaseAfter = extras.databasePid ? processCpuMicros(extras.databasePid) : null;
  const systemAfter = systemCpuMicros();
  const self = process.cpuUsage(selfBefore);

  const completed = result['2xx'] + result.non2xx;
  const serverMicros = serverBefore !== null && serverAfter !== null ? serverAfter - serverBefore : null;
  const postgresMicros = databaseBefore !== null && databaseAfter !== null ? databaseAfter - databaseBefore : null;
  const foreign =
    systemBefore && systemAfter && serverMicros !== null
      ? Math.max(0, systemAfter.busy - systemBefore.busy - serverMicros - (postgresMicros ?? 0) - self.user - self.system) / (result.duration * 1e6)
      : null;
  const m = measurementOf(result, serverMicros !== null && completed > 0 ? serverMicros / completed : null, foreign);
  const databaseMicros = extras.databasePid ? postgresMicros : serverMicros !== null ? embeddedAfter - embeddedBefore : null;
  m.databaseCpuMicrosPerRequest = databaseMicros !== null && completed > 0 ? databaseMicros / completed : null;
  if (linesBefore !== undefined) m.logLinesPerRequest = completed > 0 ? (extras.stdoutLines!() - linesBefore) / completed : null;
  return m;
}

/** An autocannon result as a Measurement: throughput and latency counted the same way for every case. */
export function measurementOf(result: autocannon.Result, cpuMicrosPerRequest: number | null, foreignCores: number | null): Measurement {
  return {
    rps: result['2xx'] / result.duration,
    ok: result['2xx'],
    // autocannon counts a timeout as an error too.
    failures: result.non2xx + result.errors,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest,
    foreignCores,
    seconds: result.duration,
  };
}

/**
 * Slices of one case's load (bench/database-run.ts interleaves a baseline's slices with its cases') as one
 * Measurement: counts and seconds summed, so req/s is the slices' requests over their seconds and CPU per request is
 * their CPU over their responses. p50 is the slices' median p50; p99 the worst slice's (autocannon's histograms are
 * not kept, and the worst slice is what a client met).
 */
export function combineMeasurements(slices: Measurement[]): Measurement {
  if (slices.length === 1) return slices[0];
  const sum = (pick: (m: Measurement) => number) => slices.reduce((total, m) => total + pick(m), 0);
  const seconds = sum((m) => m.seconds);
  const statusCodes: Record<string, number> = {};
  for (const m of slices) for (const [code, count] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const completed = (m: Measurement) => m.ok + m.failures - m.errors - m.timeouts;
  const cpuKnown = slices.every((m) => m.cpuMicrosPerRequest !== null) && sum(completed) > 0;
  const foreignKnown = slices.every((m) => m.foreignCores !== null);
  const p50s = slices.map((m) => m.p50Ms).sort((a, b) => a - b);
  /** An optional per-response figure over the slices, weighed by responses: absent if never sampled, null if unknown in any. */
  const perResponse = (pick: (m: Measurement) => number | null | undefined) => {
    if (slices.every((m) => pick(m) === undefined)) return undefined;
    return slices.every((m) => typeof pick(m) === 'number') && sum(completed) > 0 ? sum((m) => pick(m)! * completed(m)) / sum(completed) : null;
  };
  const databaseCpu = perResponse((m) => m.databaseCpuMicrosPerRequest);
  const logLines = perResponse((m) => m.logLinesPerRequest);
  return {
    rps: sum((m) => m.ok) / seconds,
    ok: sum((m) => m.ok),
    failures: sum((m) => m.failures),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes,
    p50Ms: p50s[p50s.length >> 1],
    p99Ms: Math.max(...slices.map((m) => m.p99Ms)),
    cpuMicrosPerRequest: cpuKnown ? sum((m) => m.cpuMicrosPerRequest! * completed(m)) / sum(completed) : null,
    foreignCores: foreignKnown ? sum((m) => m.foreignCores! * m.seconds) / seconds : null,
    seconds,
    ...(databaseCpu === undefined ? {} : { databaseCpuMicrosPerRequest: databaseCpu }),
    ...(logLines === undefined ? {} : { logLinesPerRequest: logLines }),
  };
}
