// The API side of the embedded database process (database-process.ts): start it, wait until it serves, supervise it
// (restarted when it dies, with a limit), stop it. Or attach to the one another local process already runs.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DataDirLockedError, recordedHolderPid } from '../data-dir-lock.js';
import type { DatabaseProcessMessage } from './database-process.js';
import { isOrphanedDatabaseProcess } from './orphan.js';
import { embeddedSocketDir, socketDatabaseUrl, socketFile } from './socket-path.js';

const entry = fileURLToPath(new URL(`./database-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
/** More deaths than this within RESTART_WINDOW_MS is a fault a restart will not mend. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

/**
 * The V8 heap options of this process's command line that the database process runs with too (npm start's
 * `--heap-growing-percent` and `--no-memory-reducer`, and a `--max-old-space-size` if given), so that one command line
 * bounds both processes (a container's heap limit included). Not `--max-semi-space-size`: it buys the API throughput,
 * but these options never changed the database process's latency or throughput visibly (measured once PGlite's result
 * leak was fixed, wire-server.ts), and its young generation grew to it: 335 MB resident after 10 minutes of the bench's
 * mix with 64 MB, 233 MB with V8's default (docs/operations.md#memory).
 */
export function heapOptionsOf(execArgv: readonly string[]): string[] {
  return execArgv.filter((option) => /^--(?:(?:heap-growing-percent|max-old-space-size)=\d+|no-memory-reducer)$/.test(option));
}

/**
 * glibc's malloc serves blocks from this size up with mmap of their own, given back to the system when freed
 * (`MALLOC_MMAP_THRESHOLD_`, unless the environment sets it). By default the threshold rises to the largest block
 * freed so far (up to 32 MB), after which PGlite's and the socket's large buffers came from arenas that never shrink:
 * the database process held 226 MB after a first start and 287 MB after 3 minutes of the bench's mix; with 64 KB,
 * 186 and 235 MB at about the same CPU per request (docs/operations.md#memory). Other C libraries ignore the variable.
 */
export const DATABASE_MMAP_THRESHOLD_BYTES = 64 * 1024;

/**
 * PGlite runs one statement at a time whatever the pool size: a few connections keep a transaction's neighbours
 * queued in the database process (not in its client) without holding many sockets.
 */
export const EMBEDDED_POOL_SIZE = 4;

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  /** A `dumpDataDir()` tarball to start a new data directory from (tests). */
  templateFile?: string;
  /** Told when the process died and was restarted, or could not be; `restarted: false` means the database is gone. */
  onProcessExit?: (event: { code: number | null; signal: string | null; restarted: boolean; error?: Error }) => void;
}

export interface EmbeddedDatabase {
  /** postgresql:// URL of the socket. */
  url: string;
  /** Pid of the database process, when this process started it. */
  pid(): number | undefined;
  /** True when this process started (and so owns) the database process. */
  owned: boolean;
  /** Stops the database process this process owns (after its connections are closed). Idempotent. */
  stop(): Promise<void>;
}

/** True when something accepts connections on the embedded database socket of `dataDir`. */
export function embeddedDatabaseRuns(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketFile(embeddedSocketDir(dataDir)));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The API's environment less `MALLOC_ARENA_MAX`, which `npm start` sets for the API's threads: the database process
 * does its work on one thread, and held 25–50 MB more under the bench's mix with the cap (docs/operations.md#memory).
 */
function databaseEnvironment({ MALLOC_ARENA_MAX: _apiArenas, ...env }: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env;
}

async function startProcess(options: EmbeddedDatabaseOptions, socketDir: string): Promise<ChildProcess> {
  const child = fork(entry, [], {
    // A compiled build runs the .js entry as is; from source the child needs the same TypeScript loader as we do.
    execArgv: [...heapOptionsOf(process.execArgv), ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : [])],
    env: {
      ...databaseEnvironment(process.env),
      EMBEDDED_DATA_DIR: options.dataDir,
      EMBEDDED_SOCKET_DIR: socketDir,
      EMBEDDED_TEMPLATE_FILE: options.templateFile ?? '',
      EMBEDDED_PARENT_PID: String(process.pid),
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? String(DATABASE_MMAP_THRESHOLD_BYTES),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const answer = await new Promise<DatabaseProcessMessage>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the embedded database process did not start in time')), START_TIMEOUT_MS);
    child.once('message', (message: DatabaseProcessMessage) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the embedded database process exited (${code}) before it was ready`));
    });
  }).catch((error: Error) => {
    child.kill('SIGKILL');
    throw error;
  });
  if (answer.type === 'locked') throw new DataDirLockedError(options.dataDir, answer.holderPid);
  if (answer.type === 'failed') throw new Error(`the embedded database could not open: ${answer.message}`);
  child.removeAllListeners('exit');
  // The IPC channel must not keep a finished script alive; the child notices our exit through it all the same.
  child.unref();
  child.channel?.unref();
  return child;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  if (child.connected) child.send({ type: 'stop' });
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Waits (up to 5 s) while `holder` is an orphaned database process still answering; true once it has stopped. */
async function orphanStopped(holder: number, dataDir: string): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && (await isOrphanedDatabaseProcess(holder))) {
    if (!(await embeddedDatabaseRuns(dataDir))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !(await embeddedDatabaseRuns(dataDir));
}

/** Starts the embedded database process for `dataDir` and supervises it. Throws DataDirLockedError when held. */
export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const socketDir = embeddedSocketDir(options.dataDir);
  // A database process that answers on the socket holds the lock: say so at once, without forking one to find out —
  // unless it is a killed server's own, which stops by itself within moments (a restart right after kill -9).
  if (await embeddedDatabaseRuns(options.dataDir)) {
    const holder = await recordedHolderPid(options.dataDir);
    if (!holder || !(await orphanStopped(holder, options.dataDir))) throw new DataDirLockedError(options.dataDir, holder);
  }
  let child = await startProcess(options, socketDir);
  let stopping: Promise<void> | undefined;
  const deaths: number[] = [];

  const watch = (watched: ChildProcess) => {
    watched.once('exit', (code, signal) => {
      if (stopping) return;
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && deaths[0] < now - RESTART_WINDOW_MS) deaths.shift();
      if (deaths.length > MAX_RESTARTS) {
        options.onProcessExit?.({ code, signal, restarted: false, error: new Error(`it died ${deaths.length} times within a minute`) });
        return;
      }
      // Connections to the dead process fail (database_error); the pool opens new ones to the new process.
      startProcess({ ...options, templateFile: undefined }, socketDir).then(
        (next) => {
          child = next;
          watch(next);
          options.onProcessExit?.({ code, signal, restarted: true });
        },
        (error: Error) => options.onProcessExit?.({ code, signal, restarted: false, error }),
      );
    });
  };
  watch(child);

  return {
    url: socketDatabaseUrl(socketDir),
    owned: true,
    pid: () => child.pid,
    stop: () => (stopping ??= stopProcess(child)),
  };
}

/** The database process another local process (a running server) owns, or a new one of our own when none runs. */
export async function attachOrStartEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  if (await embeddedDatabaseRuns(options.dataDir)) {
    return { url: socketDatabaseUrl(embeddedSocketDir(options.dataDir)), owned: false, pid: () => undefined, stop: async () => {} };
  }
  return startEmbeddedDatabase(options);
}
