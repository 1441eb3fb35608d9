import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { startNodeOptions, withStartEnvironment } from '../scripts/start-command.js';

/** A child process the bench started; every one is stopped on exit, error or SIGINT. */
export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  /** Everything it wrote to stdout and stderr so far (for error messages); the last 100–200 kB of it. */
  output: () => string;
  /** Lines it wrote to stdout so far, every one read from the pipe (a server's log lines, when it logs). */
  stdoutLines: () => number;
  /** How it ended ("code 1", "signal SIGKILL"), or null while it runs. */
  exit: () => string | null;
  /** Resolves with the first stdout/stderr line matching `pattern`; rejects on exit or after `timeoutMs`. */
  waitFor: (pattern: RegExp, timeoutMs: number) => Promise<RegExpExecArray>;
  stop: () => Promise<void>;
}

const live = new Set<Child>();
const tempDirs = new Set<string>();
const cleanups: Array<() => Promise<void>> = [];

/** Is `taskset` usable here? Checked once; pinning is skipped (and reported) where it is not. */
export const canPin: boolean = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;

/** Pins every thread of this process (the load generator) to one CPU. */
export function pinSelf(cpu: number): boolean {
  if (!canPin) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts `node [npm start's options] --import tsx <script>` (pinned to `cpu` via taskset, which execs, so the pid is node itself, or
 * the wrapper's: valgrind runs node in its own process).
 * Output is kept in memory, never printed, so a noisy child cannot garble the table.
 */
export function startNode(
  name: string,
  script: string,
  options: {
    env: NodeJS.ProcessEnv;
    cpu?: number;
    cwd: string;
    /** A command node runs under (valgrind…). */
    wrapper?: string[];
    /** Node options instead of `npm start`'s (bench/memory.ts --node-options, to measure other heap sizings). */
    nodeOptions?: string[];
    /** The checkout whose `npm start` gives the node options and environment defaults (bench:ab --start-of). @default cwd */
    startOf?: string;
  },
): Child {
  // Every server, the baselines included, runs with the node options and environment defaults of `npm start` (its
  // heap sizing and malloc arenas among them).
  const startOf = options.startOf ?? options.cwd;
  const nodeOptions = options.nodeOptions ?? startNodeOptions(startOf);
  const nodeArgs = script.endsWith('.ts') ? [...nodeOptions, '--import', 'tsx', script] : [...nodeOptions, script];
  const node = [...(options.wrapper ?? []), process.execPath, ...nodeArgs];
  const pinned = canPin && options.cpu !== undefined;
  const command = pinned ? 'taskset' : node[0];
  const args = pinned ? ['-c', String(options.cpu), ...node] : node.slice(1);
  const env = options.nodeOptions ? options.env : withStartEnvironment(startOf, options.env);
  const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  let text = '';
  let lines = 0;
  const waiters: Array<{ pattern: RegExp; resolve: (m: RegExpExecArray) => void; reject: (e: Error) => void }> = [];
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > 200_000) text = text.slice(-100_000);
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(text);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
    onData(chunk);
  });
  child.stderr!.on('data', onData);
  let exited = false;
  let exitText: string | null = null;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    exited = true;
    exitText = signal ? `signal ${signal}` : `code ${code}`;
    live.delete(handle);
    for (const waiter of waiters.splice(0))
      waiter.reject(new Error(`${name} exited (${signal ?? code}) before printing ${waiter.pattern}:\n${tail(text)}`));
  });

  const handle: Child = {
    name,
    process: child,
    pid: child.pid,
    output: () => text,
    stdoutLines: () => lines,
    exit: () => exitText,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const match = pattern.exec(text);
        if (match) return resolve(match);
        if (exited) return reject(new Error(`${name} is not running:\n${tail(text)}`));
        const timer = setTimeout(() => {
          waiters.splice(
            waiters.findIndex((w) => w.resolve === done),
            1,
          );
          reject(new Error(`${name} did not print ${pattern} within ${timeoutMs / 1000} s:\n${tail(text)}`));
        }, timeoutMs);
        const done = (m: RegExpExecArray) => {
          clearTimeout(timer);
          resolve(m);
        };
        waiters.push({
          pattern,
          resolve: done,
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
      }),
    // SIGTERM lets the API server drain and close its database (so a data dir can be copied); SIGKILL after 15 s.
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
  live.add(handle);
  return handle;
}

export const tail = (text: string) => text.split('\n').slice(-15).join('\n');

export function registerTempDir(dir: string): string {
  tempDirs.add(dir);
  return dir;
}

/** Runs before temp dirs are removed (e.g. dropping a scratch PostgreSQL database). */
export function registerCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

let cleaned = false;
/** Stops every child still running, runs registered cleanups, removes temp dirs. Idempotent. */
export async function cleanupAll(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await Promise.all([...live].map((child) => child.stop().catch(() => undefined)));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e) => process.stderr.write(`cleanup failed: ${(e as Error).message}\n`));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

/** Last resort on a synchronous exit: kill children and remove temp dirs without waiting. */
process.on('exit', () => {
  for (const child of live) child.process.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const CLOCK_TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Live child processes of `pid` (every thread's children), from /proc; empty where /proc is missing. */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU time (user + system, all threads) of one process and of its children that have exited and been waited for, in
 * µs, from /proc; null where it cannot be read. Without the exited children's part a sum over a PostgreSQL server's
 * live processes goes down when a connection's backend exits.
 */
function ownCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces); utime, stime, cutime and cstime are fields 14 to 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1e6) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, all threads) a process and its live descendants have used, in µs, from /proc; null where
 * /proc is missing. Descendants count: the API's embedded database runs in a child process.
 */
export function processCpuMicros(pid: number): number | null {
  const own = ownCpuMicros(pid);
  return own === null ? null : descendantsCpuMicros(pid) + own;
}

/** processCpuMicros's descendants' part alone. */
export function descendantsCpuMicros(pid: number): number {
  return childPids(pid).reduce((sum, child) => sum + (processCpuMicros(child) ?? 0), 0);
}

/**
 * The server's descendant that runs `script` (a file name its command line holds), or undefined: the embedded database
 * (`database-process`) and the sentence model (`knowledge.model-process`) are both children of the API.
 */
export function descendantRunning(pid: number, script: string): number | undefined {
  return descendantPids(pid).find((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(script);
    } catch {
      return false;
    }
  });
}

/** The CPU of the server's embedded database process (PGlite), µs; 0 when it has none (PostgreSQL). */
export function embeddedDatabaseCpuMicros(serverPid: number): number {
  const database = descendantRunning(serverPid, 'database-process');
  return database === undefined ? 0 : (processCpuMicros(database) ?? 0);
}

/** The live descendants of `pid` (children, theirs, …). */
export function descendantPids(pid: number): number[] {
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);
}

/** The parent of a process, from /proc; null where it cannot be read. */
export function parentPid(pid: number): number | null {
  try {
    const ppid = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return ppid ? Number(ppid[1]) : null;
  } catch {
    return null;
  }
}

/** Pins every thread of these processes to one CPU; the ones taskset refused (another user's, gone). */
export function pinProcesses(pids: number[], cpu: number): number[] {
  if (!canPin) return pids;
  return pids.filter((pid) => spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' }).status !== 0);
}

/** Busy and steal time of every CPU so far, in µs, from /proc/stat; null where it is missing. */
export function systemCpuMicros(): { busy: number; steal: number; perCpuBusy: number[] } | null {
  try {
    const lines = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((l) => /^cpu\d+ /.test(l));
    const perCpuBusy: number[] = [];
    let steal = 0;
    for (const line of lines) {
      // user nice system idle iowait irq softirq steal ...
      const [user, nice, system, , , irq, softirq, st] = line.trim().split(/\s+/).slice(1).map(Number);
      perCpuBusy.push(((user + nice + system + irq + softirq) * 1e6) / CLOCK_TICKS_PER_SECOND);
      steal += ((st || 0) * 1e6) / CLOCK_TICKS_PER_SECOND;
    }
    return { busy: perCpuBusy.reduce((a, b) => a + b, 0), steal, perCpuBusy };
  } catch {
    return null;
  }
}
