/**
 * Open-loop latency (case OPEN): requests are scheduled at a fixed rate, one every 1/rate s, whether or not earlier
 * ones have answered, and each latency is measured from its scheduled send time. A slow server therefore shows up
 * as latency instead of as fewer requests (no coordinated omission); autocannon's overallRate was not used because
 * it paces per connection and still waits for answers (performance notes, Table 3b).
 */
import { Agent, request as httpRequest } from 'node:http';
import type { BenchRequest } from './cases.js';

export interface OpenLoopResult {
  /** Requests per second scheduled, and seconds the schedule ran. */
  rate: number;
  seconds: number;
  scheduled: number;
  completed: number;
  /** Non-2xx answers, socket errors and requests not answered within the timeout. */
  failures: number;
  statusCodes: Record<string, number>;
  /** The failures that had no answer, by error code (ECONNRESET, timeout…) and whether the connection was a reused one. */
  socketErrors: Record<string, number>;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late the generator itself sent requests (p99 ms); a large value means the generator, not the server, lagged. */
  sendLagP99Ms: number;
  /**
   * The highest p99 of any whole WINDOW_SECONDS of the schedule (requests grouped by their send time): where one
   * pause (a full garbage collection) lands shows here even when the whole run's p99 absorbs it.
   */
  worstWindowP99Ms: number;
  windowSeconds: number;
}

/** One OPEN case for bench/open-loop-process.ts: `warmupSeconds` at the rate, not recorded, then `seconds` measured. */
export interface OpenLoopJob {
  target: { port: number; key: string };
  request: BenchRequest;
  rate: number;
  warmupSeconds: number;
  seconds: number;
}

/** The width of the windows worstWindowP99Ms is taken over. */
export const WINDOW_SECONDS = 5;

/**
 * The highest p99 over the whole `windowSeconds` windows of a `seconds`-long schedule, each answered request placed
 * by its scheduled send time (ms from the schedule's start). A short last window is left out: its p99 would rest on
 * too few requests to mean anything.
 */
export function worstWindowP99(answered: Array<{ sentAtMs: number; latencyMs: number }>, seconds: number, windowSeconds: number): number {
  const windows: number[][] = Array.from({ length: Math.max(1, Math.floor(seconds / windowSeconds)) }, () => []);
  for (const { sentAtMs, latencyMs } of answered) windows[Math.floor(sentAtMs / (windowSeconds * 1000))]?.push(latencyMs);
  const ascending = (a: number, b: number) => a - b;
  return Math.max(0, ...windows.map((w) => quantile(w.sort(ascending), 0.99)));
}

/** The value at quantile q (0..1) of ascending `sorted` (nearest rank); 0 for an empty list. */
export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** What the failures were, for a log line or a report: " (ECONNRESET 2, HTTP 503 1)", or "" when none failed. */
export function failureDetail(result: Pick<OpenLoopResult, 'socketErrors' | 'statusCodes'>): string {
  const parts = [
    ...Object.entries(result.socketErrors ?? {}).map(([code, n]) => `${code} ${n}`),
    ...Object.entries(result.statusCodes)
      .filter(([status]) => !status.startsWith('2'))
      .map(([status, n]) => `HTTP ${status} ${n}`),
  ];
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * The generator's connection pool. Node 20's Agent follows a server's `Keep-Alive: timeout=N` hint (closing an idle
 * connection 1 s before N) only when it has a `timeout` of its own; without one it kept idle connections for ever, and
 * after a slow spell sent requests on connections the server was closing at that moment: ECONNRESET on a reused
 * connection, 2–6 in 13,000 requests, counted as the server's failures.
 */
export function generatorAgent(timeoutMs: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: 512, timeout: timeoutMs });
}

export async function openLoop(
  target: { port: number; key: string },
  request: BenchRequest,
  options: { rate: number; seconds: number; timeoutMs?: number },
): Promise<OpenLoopResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const agent = generatorAgent(timeoutMs);
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}` };
  if (request.body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(request.body));
  }
  const answered: Array<{ sentAtMs: number; latencyMs: number }> = [];
  const lags: number[] = [];
  const statusCodes: Record<string, number> = {};
  const socketErrors: Record<string, number> = {};
  let failures = 0;
  let settled = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const finish = () => {
    if (++settled === total) allDone();
  };

  const fire = (scheduled: number) => {
    lags.push(performance.now() - scheduled);
    const req = httpRequest(
      { host: '127.0.0.1', port: target.port, path: request.path, method: request.method, headers, agent, timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => {
          const code = String(res.statusCode);
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
          if (res.statusCode! >= 200 && res.statusCode! < 300) {
            answered.push({ sentAtMs: scheduled - start, latencyMs: performance.now() - scheduled });
          } else failures++;
          finish();
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => {
      // A reset on a kept-alive connection is usually the keep-alive race (the server closing an idle connection as
      // the next request is sent on it); on a new one it is the server's doing.
      const code = `${e.code ?? e.message}${req.reusedSocket ? ' on a reused connection' : ''}`;
      socketErrors[code] = (socketErrors[code] ?? 0) + 1;
      failures++;
      finish();
    });
    req.end(request.body);
  };

  const start = performance.now() + 20;
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    // Send everything already due (after a stall the backlog goes out at once, still timed from its schedule).
    while (sent < total && start + sent * interval <= now) fire(start + sent++ * interval);
    if (sent < total) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * interval - performance.now())));
  }
  await done;
  agent.destroy();
  const sorted = answered.map((a) => a.latencyMs).sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    rate: options.rate,
    seconds: options.seconds,
    scheduled: total,
    completed: answered.length,
    failures,
    statusCodes,
    socketErrors,
    p50Ms: round(quantile(sorted, 0.5)),
    p90Ms: round(quantile(sorted, 0.9)),
    p99Ms: round(quantile(sorted, 0.99)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    sendLagP99Ms: round(
      quantile(
        lags.sort((a, b) => a - b),
        0.99,
      ),
    ),
    worstWindowP99Ms: round(worstWindowP99(answered, options.seconds, WINDOW_SECONDS)),
    windowSeconds: WINDOW_SECONDS,
  };
}
