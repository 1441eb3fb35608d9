// The embedded database in its own process, as an operator meets it: a server started with `npm start`, the keys CLI
// beside it under load, the database process killed and restarted, signals to npm itself, and kill -9 of the server.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeOptions } from '../../scripts/start-command.js';
import { openDatabase } from '../../src/db/client.js';
import { heapOptionsOf } from '../../src/db/embedded/embedded-database.js';
import { freePort, repoRoot, startServer, type ServerProcess } from '../support/processes.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wv-embedded-'));
});
afterAll(async () => {
  for (const pid of await processesOf(dataDir)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** Every process started with DATA_DIR=`dir` in its environment: npm, the server, its database process, the CLI. */
async function processesOf(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(`DATA_DIR=${dir}`)) pids.push(Number(entry));
  }
  return pids;
}

async function databasePid(): Promise<number> {
  return JSON.parse(await readFile(join(dataDir, 'lock-owner.json'), 'utf8')).pid;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The keys CLI, run without blocking this process: the load's searches keep going while it works, and the keep-alive
 * connections they use stay served (a synchronous spawn froze them for the CLI's seconds, and the next request could
 * go out on one the server had meanwhile closed: "other side closed").
 */
function keysCli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', 'keys', '--', ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** `npm start` itself (not the node process it starts), so signals go to npm as an operator's would. */
function npmStart(env: Record<string, string>): ServerProcess {
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, ms = 120_000) => until(() => output.includes(text), ms, `"${text}" in:\n${output}`);
  return { child, exited, output: () => output, stdout: () => output, waitFor, stop: async () => void child.kill('SIGTERM') };
}

describe('the embedded database process', () => {
  it('serves the keys CLI beside a loaded server, survives its own kill -9, and leaves nothing behind on SIGTERM to npm', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await chmod(dataDir, 0o755);
    const server = npmStart({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: base, LOG_LEVEL: 'info' });
    await server.waitFor('Demo API key');
    const demoKey = /Demo API key[^:]*: (wv_live_\w+)/.exec(server.output())![1];
    // The socket is the database's only door: a directory only this user may enter, a socket only it may open.
    expect((await stat(join(dataDir, 'run'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dataDir, 'run', '.s.PGSQL.5432'))).mode & 0o777).toBe(0o600);
    // The data files too: PGlite writes them 0666, so the directory is the door, and only this user may enter it
    // (it was 0755 before the start, as an operator's mkdir leaves it).
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    // The database process runs with npm start's heap bounds: one command line bounds both processes.
    const pids = await processesOf(dataDir);
    const read = (file: string) => Promise.all(pids.map(async (pid) => (await readFile(`/proc/${pid}/${file}`, 'utf8').catch(() => '')).split('\0')));
    const [commandLines, environments] = [await read('cmdline'), await read('environ')];
    const databaseAt = commandLines.findIndex((args) => args.some((a) => a.includes('database-process')));
    const serverAt = commandLines.findIndex((args) => args.some((a) => a.endsWith('dist/src/main.js')));
    const heapOptions = heapOptionsOf(startNodeOptions(repoRoot));
    expect(heapOptions).toEqual(['--heap-growing-percent=100']);
    expect(commandLines[databaseAt]).toEqual(expect.arrayContaining(heapOptions));
    expect(commandLines[databaseAt].some((a) => a.startsWith('--max-semi-space-size'))).toBe(false);
    // npm start caps the server's malloc arenas; the database process, on one thread, runs without the cap.
    expect(environments[serverAt]).toContain('MALLOC_ARENA_MAX=2');
    expect(environments[databaseAt].some((v) => v.startsWith('MALLOC_ARENA_MAX='))).toBe(false);
    const search = (key: string) => fetch(`${base}/api/v1/venues?limit=20&state=CA`, { headers: { authorization: `Bearer ${key}` } });

    // Load: 6 searches in flight all the time while the CLI issues and revokes a key. They run on a key of their own:
    // at 60 a minute (§8) it soon answers 429, each still a key check (its row read once per API_KEY_LEASE_MS), and
    // the demo key keeps its minute for the searches after the database's restart below. The revocation is refused
    // on the next request because the CLI waits out the server's lease (both at the default 1000 ms here).
    const loadKey = (await keysCli('create', '--tier', 'pro', '--name', 'load')).stdout.trim();
    expect(loadKey).toMatch(/^wv_live_[0-9A-Za-z]{32}$/);
    let loading = true;
    const statuses: number[] = [];
    const load = Array.from({ length: 6 }, async () => {
      while (loading) statuses.push((await search(loadKey)).status);
    });
    const created = await keysCli('create', '--tier', 'free', '--name', 'issued while serving');
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^wv_live_[0-9A-Za-z]{32}$/);
    expect((await search(key)).status).toBe(200);
    expect((await keysCli('revoke', key.slice(0, 16))).status).toBe(0);
    const revoked = await search(key);
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).error.code).toBe('invalid_api_key');
    loading = false;
    await Promise.all(load);
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);

    // A third local process (psql-like) on the socket keeps the database busy for 3 s: the API's event loop is not
    // the database's, so a page that needs no database answers at once meanwhile.
    const psql = new pg.Client({ host: join(dataDir, 'run'), user: 'postgres', database: 'postgres' });
    await psql.connect();
    const busy = psql.query('SELECT pg_sleep(3)');
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    expect((await fetch(`${base}/developers/changelog`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    await busy;
    await psql.end();

    // The database process dies: the server says so, starts a new one, and answers again.
    const first = await databasePid();
    process.kill(first, 'SIGKILL');
    await server.waitFor('the embedded database process died and was restarted', 60_000);
    await until(async () => (await search(demoKey)).status === 200, 30_000, 'a search answering after the restart');
    expect(await databasePid()).not.toBe(first);

    // SIGTERM to npm: the server drains and exits 0, its database process stops, the lock is released.
    const running = await processesOf(dataDir);
    expect(running.length).toBeGreaterThanOrEqual(3); // npm, the server, its database process
    server.child.kill('SIGTERM');
    await until(async () => (await processesOf(dataDir)).length === 0, 30_000, 'every process of this DATA_DIR gone');
    expect(server.output()).toContain('"msg":"stopped"');
    expect(existsSync(join(dataDir, 'lock'))).toBe(false);
  }, 240_000);

  it('kill -9 of the server leaves no database process holding the lock; a restart opens the same data', async () => {
    const port = await freePort();
    const server = startServer({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATABASE_URL: '', REDIS_URL: '' });
    await server.waitFor('ready in');
    const database = await databasePid();
    expect(database).not.toBe(server.child.pid);
    server.child.kill('SIGKILL');
    await until(() => !isRunning(database), 10_000, 'the orphaned database process to stop');
    const reopened = await openDatabase({ dataDir });
    try {
      expect(await reopened.prisma.venue.count()).toBeGreaterThanOrEqual(1500);
      expect(await reopened.prisma.apiKey.count({ where: { name: 'issued while serving' } })).toBe(1);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});

describe("the database process's node options", () => {
  it("are the parent's heap bounds and nothing else of its command line (its young generation is V8's default)", () => {
    expect(
      heapOptionsOf([
        '--enable-source-maps',
        '--max-semi-space-size=64',
        '--inspect=9230',
        '--heap-growing-percent=300',
        '--no-memory-reducer',
        '--memory-reducer-single-gc',
        '--import',
        'tsx',
        '--max-old-space-size=2048',
      ]),
    ).toEqual(['--heap-growing-percent=300', '--no-memory-reducer', '--max-old-space-size=2048']);
    expect(heapOptionsOf([])).toEqual([]);
  });
});
