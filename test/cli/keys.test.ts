import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysCli } from '../../src/cli/keys.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createEmptyTestDatabase } from '../support/database.js';
import { createTestApp } from '../support/app.js';

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname;
const KEY = /^wv_live_[0-9A-Za-z]{32}$/;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

describe('keys CLI commands', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createEmptyTestDatabase();
  });
  afterAll(() => db.close());

  it('create prints the key alone; list shows prefix, tier and name; revoke refuses the key at once', async () => {
    const created = io();
    expect(await runKeysCli(['create', '--tier', 'free', '--name', 'Planner app'], db.prisma, created.io)).toBe(0);
    expect(created.out).toHaveLength(1);
    expect(created.out[0]).toMatch(KEY);
    const key = created.out[0];
    const listed = io();
    expect(await runKeysCli(['list'], db.prisma, listed.io)).toBe(0);
    expect(listed.out.join('\n')).toContain(`${key.slice(0, 16)}\tfree\tPlanner app`);
    expect(listed.out.join('\n')).not.toContain(key);

    const t = await createTestApp({ database: db });
    expect((await t.rest('/api/v1/vendors/categories', { key })).status).toBe(200);
    expect(await runKeysCli(['revoke', key.slice(0, 16)], db.prisma, io().io)).toBe(0);
    expect((await t.rest('/api/v1/vendors/categories', { key })).body.error.code).toBe('invalid_api_key');
    const again = io();
    expect(await runKeysCli(['revoke', key.slice(0, 16)], db.prisma, again.io)).toBe(1);
    expect(again.err.join()).toContain('No active key');
  });

  it('refuses unknown tiers and commands with usage and exit code 2', async () => {
    for (const argv of [['create', '--tier', 'gold'], ['create'], ['rotate'], [], ['revoke']]) {
      const r = io();
      expect(await runKeysCli(argv, db.prisma, r.io)).toBe(2);
      expect(r.out).toEqual([]);
      expect(r.err.join('\n')).toContain('Usage');
    }
  });
});

describe('npm run -s keys (real processes on a DATA_DIR)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'wv-keys-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' });

  it('works on a fresh DATA_DIR, migrating it, and prints only the key on stdout', async () => {
    const { stdout } = await run('npm', ['run', '-s', 'keys', '--', 'create', '--tier', 'pro'], { cwd: repo, env: env() });
    expect(stdout.trim()).toMatch(KEY);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('shares the embedded database with another process that has it open (the server case: test/db/embedded-process.test.ts)', async () => {
    const holder = await openDatabase({ dataDir, migrate: false, shareEmbedded: true });
    try {
      const { stdout } = await run('npm', ['run', '-s', 'keys', '--', 'create', '--tier', 'free', '--name', 'beside'], { cwd: repo, env: env() });
      const key = stdout.trim();
      expect(key).toMatch(KEY);
      expect(await holder.prisma.apiKey.count({ where: { name: 'beside' } })).toBe(1);
    } finally {
      await holder.close();
    }
  });
});
