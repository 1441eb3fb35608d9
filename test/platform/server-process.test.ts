import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';

const repo = new URL('../..', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Runs `npm start`'s command and collects its output; resolves `exited` with the exit code. */
function startServer(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: repo, env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, ms = 90_000) => {
    const deadline = Date.now() + ms;
    while (!output.includes(text)) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before "${text}"; output:\n${output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}"; output:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, exited, waitFor, output: () => output };
}

describe('the server process (npm start)', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('migrates and seeds an empty DATA_DIR, prints a working demo key, refuses a second server, drains on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-server-'));
    dirs.push(dataDir);
    const port = await freePort();
    // Vite puts its own BASE_URL ("/") into the test process's environment; the server needs a real origin.
    const first = startServer({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', BASE_URL: `http://127.0.0.1:${port}` });
    children.push(first.child);
    await first.waitFor('Demo API key');
    const key = /Demo API key[^:]*: (wv_live_\w+)/.exec(first.output())![1];
    expect(first.output()).not.toMatch(new RegExp(`"[^"]*":"[^"]*${key}`)); // printed once, never inside a log line

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });
    const venues = await fetch(`http://127.0.0.1:${port}/api/v1/venues?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(venues.status).toBe(200);
    expect((await venues.json()).pagination.total_count).toBeGreaterThanOrEqual(1500);

    const second = startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), BASE_URL: 'http://127.0.0.1' });
    children.push(second.child);
    const secondCode = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(secondCode, second.output()).not.toBe(0);
    expect(secondCode, second.output()).not.toBe('still running');
    expect(second.output()).toContain('is in use by another process');

    first.child.kill('SIGTERM');
    const firstCode = await Promise.race([first.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
    expect(firstCode, first.output().slice(-2000)).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    // The lock is released and the data is intact: the directory opens again with no migration pending.
    const reopened = await openDatabase({ dataDir });
    expect(await reopened.prisma.venue.count()).toBeGreaterThanOrEqual(1500);
    await reopened.close();
  }, 150_000);
});
