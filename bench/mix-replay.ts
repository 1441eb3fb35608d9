/**
 * Replays bench/mix.json against the API under closed-loop load (case MIX-cold): one shared position in the list
 * across every connection, warm-up-free, continuing round after round, so no request repeats until the list is used
 * up (then it wraps, and the run reports how many requests were repeats).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Answer, BenchRequest } from './cases.js';
import { embeddedDatabaseCpuMicros, processCpuMicros } from './children.js';
import { entryProblem, materialise, type MixEntry, type MixFile } from './mix.js';
import { measurementOf, type MeasureExtras, type Measurement, type Rotation } from './load.js';

export const MIX_PATH = new URL('./mix.json', import.meta.url);

/** The committed list, checked: every entry well-formed and distinct. */
export function loadMix(path: URL | string = MIX_PATH): { file: MixFile; requests: BenchRequest[] } {
  const file = JSON.parse(readFileSync(path, 'utf8')) as MixFile;
  const problems = file.entries.map((e, i) => [i, entryProblem(e, file.documents)] as const).filter(([, p]) => p);
  if (problems.length) throw new Error(`bench/mix.json: ${problems.length} bad entries, e.g. #${problems[0][0]}: ${problems[0][1]}`);
  return { file, requests: file.entries.map((e) => materialise(e, file.documents)) };
}

/** null when a mix answer is a usable 200 (GraphQL: no errors; a REST `data: null`, e.g. an uncovered region, is a valid answer); otherwise what is wrong. Expected 404s: none. */
export function mixAnswerProblem(answer: Answer): string | null {
  if (answer.status !== 200) return `status ${answer.status}: ${answer.text.slice(0, 160)}`;
  if (answer.json === null) return 'body is not JSON';
  if (answer.json.errors) return `errors: ${JSON.stringify(answer.json.errors).slice(0, 160)}`;
  return null;
}

/** `count` indexes spread evenly over a list of `total`. */
export function sampleIndexes(total: number, count: number): number[] {
  const n = Math.min(total, count);
  return Array.from({ length: n }, (_, i) => Math.floor((i * total) / n));
}

/** The answers to some entries, request_id removed (it is the only part that differs between identical answers). */
export async function answersOf(
  send: (request: BenchRequest) => Promise<Answer>,
  requests: BenchRequest[],
  indexes: number[],
): Promise<Array<{ text: string; cache: string | null }>> {
  const out: Array<{ text: string; cache: string | null }> = [];
  for (const i of indexes) {
    const answer = await send(requests[i]);
    out.push({ text: `${answer.status} ${answer.text.replace(/"request_id":"[^"]*"/g, '')}`, cache: answer.headers.get('x-cache') });
  }
  return out;
}

/** Sends every request of the list once, `concurrency` at a time: MIX-warm then replays a primed cache. */
export async function primeMix(
  send: (request: BenchRequest) => Promise<Answer>,
  requests: BenchRequest[],
  concurrency: number,
): Promise<{ sent: number; failed: number; seconds: number }> {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < requests.length) {
      const answer = await send(requests[next++]);
      if (mixAnswerProblem(answer)) failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { sent: requests.length, failed, seconds: (performance.now() - started) / 1000 };
}

/** Where the replay is in the list; shared by every round so a cold run keeps sending requests it never sent. */
export interface MixCursor {
  next: number;
}

export interface MixMeasurement extends Measurement {
  /** Requests started in this run, and how many of them repeated an earlier one (the list wrapped). */
  sent: number;
  repeats: number;
  /** Non-2xx answers by entry (index: status), at most 20 listed. */
  failedEntries: Array<{ entry: number; status: number; kind: string }>;
}

export async function measureMix(
  target: {
    baseUrl: string;
    keys: string[];
    /** Sent with every request (the realistic cases' Accept-Encoding and Origin). */
    headers?: Record<string, string>;
    /** Keys (and client addresses) taken in turn from a rotation shared with other loads, instead of by entry. */
    rotation?: Rotation;
  },
  mix: { entries: MixEntry[]; requests: BenchRequest[] },
  cursor: MixCursor,
  serverPid: number,
  options: { connections: number; duration: number },
  extras: MeasureExtras = {},
): Promise<MixMeasurement> {
  const total = mix.requests.length;
  const startedAt = cursor.next;
  const failedEntries: MixMeasurement['failedEntries'] = [];
  const { rotation } = target;
  const headersFor = (request: BenchRequest, index: number) => ({
    ...target.headers,
    ...(rotation ? rotation.headersAt(rotation.next++ % rotation.size) : { authorization: `Bearer ${target.keys[index % target.keys.length]}` }),
    ...(request.body ? { 'content-type': 'application/json' } : {}),
  });
  const serverBefore = processCpuMicros(serverPid);
  const embeddedBefore = embeddedDatabaseCpuMicros(serverPid);
  const databaseBefore = extras.databasePid ? processCpuMicros(extras.databasePid) : null;
  const linesBefore = extras.stdoutLines?.();
  const result = await autocannon({
    url: target.baseUrl,
    connections: options.connections,
    duration: options.duration,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        setupRequest: (request, context) => {
          const index = cursor.next++ % total;
          context.entry = index;
          const r = mix.requests[index];
          return { ...request, method: r.method, path: r.path, body: r.body, headers: headersFor(r, index) };
        },
        onResponse: (status, _body, context) => {
          if ((status < 200 || status > 299) && failedEntries.length < 20) {
            const entry = Number(context.entry);
            failedEntries.push({ entry, status, kind: mix.entries[entry]?.kind ?? '?' });
          }
        },
      },
    ],
  });
  const serverAfter = processCpuMicros(serverPid);
  const embeddedAfter = embeddedDatabaseCpuMicros(serverPid);
  const databaseAfter = extras.databasePid ? processCpuMicros(extras.databasePid) : null;
  const completed = result['2xx'] + result.non2xx;
  const sent = cursor.next - startedAt;
  const serverMicros = serverBefore !== null && serverAfter !== null ? serverAfter - serverBefore : null;
  const databaseMicros = extras.databasePid
    ? databaseBefore !== null && databaseAfter !== null
      ? databaseAfter - databaseBefore
      : null
    : serverMicros !== null
      ? embeddedAfter - embeddedBefore
      : null;
  return {
    ...measurementOf(result, serverMicros !== null && completed > 0 ? serverMicros / completed : null, null),
    databaseCpuMicrosPerRequest: databaseMicros !== null && completed > 0 ? databaseMicros / completed : null,
    ...(linesBefore === undefined ? {} : { logLinesPerRequest: completed > 0 ? (extras.stdoutLines!() - linesBefore) / completed : null }),
    sent,
    repeats: Math.max(0, Math.min(sent, cursor.next - total)),
    failedEntries,
  };
}
