// Real processes for tests: free ports, the server as `npm start` runs it, private redis-servers.
// One copy for every test that spawns something; extend it here rather than writing another.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startNodeOptions, withStartEnvironment } from '../../scripts/start-command.js';
import { captureLog } from './run-log.js';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Only what it wrote to stdout. */
  stdout: () => string;
  /** Resolves once `text` appears in the output; rejects when the process exits first or `ms` pass. */
  waitFor: (text: string, ms?: number) => Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone. */
  stop: () => Promise<void>;
}

/** The command `npm start` runs (the compiled server; test/support/global-setup.ts builds it when stale). */
export const SERVER_COMMAND = [...startNodeOptions(repoRoot), 'dist/src/main.js'];

/** Starts the server process with `env` on top of this process's environment; output is collected. */
export function startServer(env: Record<string, string>, args: string[] = SERVER_COMMAND): ServerProcess {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: withStartEnvironment(repoRoot, { ...process.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (d) => {
    output += d;
    stdout += d;
    // stdout is the structured log; stderr is the terminal (where the demo key banner belongs).
    captureLog(String(d));
  });
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, ms = 120_000) => {
    const deadline = Date.now() + ms;
    while (!output.includes(text)) {
      if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before "${text}"; output:\n${output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}"; output:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return { child, exited, output: () => output, stdout: () => stdout, waitFor, stop };
}

/** redis-server is installed (tests that start their own Redis skip cleanly otherwise; with FAULT_TESTS=1 they fail). */
export const hasRedisServer = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A private redis-server on a random port, never the shared one on :6379; stop() kills it. */
export async function startOwnRedis(): Promise<{ url: string; port: number; child: ChildProcess; stop: () => Promise<void> }> {
  const missing = missingFaultTools(['redis']);
  if (missing.length) throw new Error(missing.join('\n'));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return { url: `redis://127.0.0.1:${port}`, port, child, stop };
}

/** A directory holding both PostgreSQL server binaries a private cluster needs. */
const hasServerBinaries = (dir: string) => ['postgres', 'initdb'].every((binary) => existsSync(join(dir, binary)));

/**
 * Where the PostgreSQL server binaries are: `PG_BINDIR` when set (nothing else is tried), else `pg_config --bindir`,
 * else the newest /usr/lib/postgresql/<version>/bin (Debian and Ubuntu) holding `postgres` and `initdb`. Null when none
 * does: a client-only install (psql, libpq-dev's pg_config) has no server to start. The inputs are parameters so the
 * choice itself is tested (test/support/processes.test.ts).
 */
export function findPostgresBinDir(
  options: { env?: string; pgConfigBindir?: () => string | null; versionsRoot?: string; isServerDir?: (dir: string) => boolean } = {},
): string | null {
  const env = 'env' in options ? options.env : process.env.PG_BINDIR;
  const isServerDir = options.isServerDir ?? hasServerBinaries;
  if (env) return isServerDir(env) ? env : null;
  const pgConfigBindir =
    options.pgConfigBindir ??
    (() => {
      const run = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
      return run.status === 0 ? run.stdout.trim() || null : null;
    });
  const fromPgConfig = pgConfigBindir();
  if (fromPgConfig && isServerDir(fromPgConfig)) return fromPgConfig;
  const root = options.versionsRoot ?? '/usr/lib/postgresql';
  let versions: string[];
  try {
    versions = readdirSync(root);
  } catch {
    return null;
  }
  // Numerically: 9.6 < 10 < 15 < 17.
  const newestFirst = versions
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, 'bin'));
  return newestFirst.find(isServerDir) ?? null;
}

/** The PostgreSQL server binaries' directory on this machine, or null (see findPostgresBinDir). */
export const PG_BIN = findPostgresBinDir();

/** initdb and postgres are installed (fault tests that need a private PostgreSQL skip cleanly otherwise; with FAULT_TESTS=1 they fail). */
export const hasPostgresServer = PG_BIN !== null && spawnSync(join(PG_BIN, 'postgres'), ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * What a fault test needs and this machine lacks, one explanatory line each (empty: all there). With FAULT_TESTS=1 a
 * missing tool is a failure, not a skip: a CI run that asked for the fault tests must not pass without running them.
 */
export function missingFaultTools(
  needed: ('postgres' | 'redis')[],
  found: { postgres: boolean; redis: boolean } = { postgres: hasPostgresServer, redis: hasRedisServer },
): string[] {
  const missing: string[] = [];
  if (needed.includes('postgres') && !found.postgres) {
    missing.push(
      'PostgreSQL server binaries (postgres, initdb) not found: looked in $PG_BINDIR, `pg_config --bindir` and /usr/lib/postgresql/*/bin. ' +
        'Install the server package (e.g. apt-get install postgresql) or set PG_BINDIR.',
    );
  }
  if (needed.includes('redis') && !found.redis) missing.push('redis-server not found on PATH. Install it (e.g. apt-get install redis-server).');
  return missing;
}

/** Runs a PostgreSQL binary as the postgres user when we are root (initdb and postgres refuse to run as root). */
function asPostgres(bindir: string, binary: string, args: string[]): [string, string[]] {
  const path = join(bindir, binary);
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

/**
 * A private PostgreSQL cluster (initdb in a temporary directory, a free port on 127.0.0.1, trust auth), never the
 * shared one on :5432: fault tests stop and restart it. `url` names its database `test`.
 */
export async function startOwnPostgres(): Promise<{
  url: string;
  port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  destroy: () => Promise<void>;
}> {
  const missing = missingFaultTools(['postgres']);
  if (missing.length || !PG_BIN) throw new Error(missing.join('\n'));
  const bindir = PG_BIN;
  const { mkdtempSync, chownSync, rmSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'wv-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const [initCmd, initArgs] = asPostgres(bindir, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const [cmd, args] = asPostgres(bindir, 'postgres', [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
    ]);
    server = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stderr?.on('data', (d) => (out += d));
    const deadline = Date.now() + 20_000;
    while (!out.includes('ready to accept connections')) {
      if (server.exitCode !== null) throw new Error(`postgres exited: ${out}`);
      if (Date.now() > deadline) throw new Error(`postgres did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  // The postmaster's own pid (runuser does not pass SIGINT on): fast shutdown terminates open connections, as a
  // real restart does.
  const stop = async () => {
    const s = server;
    if (!s || s.exitCode !== null || s.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => s.once('exit', () => resolve()));
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    await exited;
  };
  await start();
  const created = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'CREATE DATABASE test'], { encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    port,
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An app on a real listener (the service's own node:http server) on a free 127.0.0.1 port; close() ends it. */
export async function listenApp(app: { requestListener: import('node:http').RequestListener }): Promise<{
  http: import('../../src/http/server.js').HttpServer;
  base: string;
  port: number;
  close: () => Promise<void>;
}> {
  const { createHttpServer } = await import('../../src/http/server.js');
  const { createLogger } = await import('../../src/logging/logger.js');
  const http = createHttpServer(app.requestListener, { log: createLogger({ level: 'silent' }), baseUrl: 'http://api.test' });
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  const port = (http.server.address() as import('node:net').AddressInfo).port;
  const close = async () => {
    http.server.closeAllConnections();
    await new Promise((r) => http.server.close(r));
  };
  return { http, base: `http://127.0.0.1:${port}`, port, close };
}
