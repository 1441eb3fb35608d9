import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { freePort, startServer } from '../support/processes.js';

/** The server as `npm start` runs it, on the embedded database whatever the test run's environment. */
const startEmbedded = (env: Record<string, string>) => startServer({ DATABASE_URL: '', REDIS_URL: '', ...env });

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
    const metricsPort = await freePort();
    const first = startEmbedded({
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      BASE_URL: `http://127.0.0.1:${port}`,
      METRICS_PORT: String(metricsPort),
    });
    children.push(first.child);
    await first.waitFor('Demo API key');
    // stdout and stderr are two pipes: the log line written just before the banner may arrive after it.
    await first.waitFor('"msg":"listening"');
    const key = /Demo API key[^:]*: (wv_live_\w+)/.exec(first.output())![1];
    expect(first.output()).not.toMatch(new RegExp(`"[^"]*":"[^"]*${key}`)); // printed once, never inside a log line
    // stdout is the JSON log stream only; the banner and the key went to stderr.
    // Complete lines only: the last one may still be arriving.
    for (const line of first.stdout().split('\n').slice(0, -1).filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
    expect(first.stdout()).not.toContain(key);
    expect(first.stdout()).toContain('"host":"127.0.0.1"');

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });
    const venues = await fetch(`http://127.0.0.1:${port}/api/v1/venues?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(venues.status).toBe(200);
    expect((await venues.json()).pagination.total_count).toBeGreaterThanOrEqual(1500);
    // Metrics on their own port, not on the API's.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^http_requests_total\{surface="rest",route="\/api\/v1\/venues",method="GET",status="200"\} 1$/m);
    expect(Number(/^db_query_duration_seconds_count (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^rate_limit_store_state\{state="memory"\} 1$/m);
    expect(metrics).toMatch(/^db_pool_max_connections 4$/m); // the embedded database's pool
    expect(first.stdout()).toContain('"msg":"metrics on GET /metrics"');
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);

    const second = startEmbedded({ DATA_DIR: dataDir, PORT: String(await freePort()), BASE_URL: 'http://127.0.0.1' });
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

  it('SIGTERM during the first start (seeding) exits 0 at once; the data directory opens again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-server-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = startEmbedded({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', BASE_URL: `http://127.0.0.1:${port}` });
    children.push(server.child);
    await server.waitFor('seeding the demo catalogue');
    server.child.kill('SIGTERM');
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(code, server.output().slice(-2000)).toBe(0);
    expect(server.output()).toContain('stopping during start-up');
    expect(server.output()).not.toMatch(/ReferenceError|at .+\.js:\d+/);
    // The database process notices its parent is gone, closes PGlite and lets go of the lock within seconds.
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await (await openDatabase({ dataDir })).close();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }, 120_000);
});
