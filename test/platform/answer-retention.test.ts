// An answer must die young. Yoga's fetch() waited for each answer through an abort listener, and that path kept every
// GraphQL answer reachable across young-generation GCs until the next mark-compact: ~45 KB promoted per 20-venue query,
// the Mark-Compacts behind GraphQL's open-loop tail (docs/performance.md, Levers). Measured in the real server
// process with V8's own per-scavenge figures (--trace-gc-nvp), one request at a time.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNodeOptions } from '../../scripts/start-command.js';
import { freePort, repoRoot, startServer } from '../support/processes.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const QUERY =
  '{ venues(first: 20) { totalCount nodes { slug name city state amenities seoDescription pricing { currency startingTotal { amount } } } } }';

describe('a GraphQL answer is not kept past its request', () => {
  it('promotes under 15 KB per 20-venue query to the old generation (was ~45 KB)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-retention-'));
    dirs.push(dataDir);
    const port = await freePort();
    // npm start's options, then a small young generation so that 300 requests see many scavenges.
    const args = [...startNodeOptions(repoRoot), '--max-semi-space-size=4', '--trace-gc-nvp', 'dist/src/main.js'];
    const server = startServer(
      { DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', BENCH: '1' },
      args,
    );
    children.push(server.child);
    await server.waitFor('Demo API key');
    const key = /Demo API key[^:]*: (wv_live_\w+)/.exec(server.output())![1];
    const send = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: QUERY }),
      });
      const body = await res.json();
      expect(body.data?.venues?.nodes, JSON.stringify(body).slice(0, 300)).toHaveLength(20);
    };
    for (let i = 0; i < 40; i++) await send();
    const mark = server.stdout().length;
    const requests = 300;
    for (let i = 0; i < requests; i++) await send();
    const scavenges = server
      .stdout()
      .slice(mark)
      .split('\n')
      .filter((line) => line.includes('gc=s '));
    const promoted = scavenges.reduce((sum, line) => sum + Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0), 0);
    expect(scavenges.length, 'scavenges during the measurement').toBeGreaterThanOrEqual(5);
    expect(promoted / requests, `promoted bytes per request over ${scavenges.length} scavenges`).toBeLessThan(15 * 1024);
    await server.stop();
  }, 120_000);
});
