import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock.js';
import { pgliteTemplateFile } from '../support/database.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const clientUrl = new URL('../../src/db/client.ts', import.meta.url).href;
const lockUrl = new URL('../../src/db/data-dir-lock.ts', import.meta.url).href;
let scratch: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'wv-lock-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * A separate process holding `dataDir` until killed: like a server (opens the database and writes a row), or with
 * the bare lock when only the lock is under test (no PGlite boot).
 */
async function startHolder(dataDir: string, mode: 'server' | 'lock-only'): Promise<ChildProcess> {
  const code =
    mode === 'server'
      ? `const { openDatabase } = await import(${JSON.stringify(clientUrl)});
         const db = await openDatabase({ dataDir: process.env.HOLDER_DATA_DIR, templateFile: process.env.HOLDER_TEMPLATE });
         await db.prisma.appSecret.create({ data: { name: 'holder', value: String(process.pid) } });`
      : `const { lockDataDir } = await import(${JSON.stringify(lockUrl)});
         await lockDataDir(process.env.HOLDER_DATA_DIR);`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `${code}\nprocess.stdout.write('ready\\n'); setInterval(() => {}, 60_000);`],
    {
      cwd: repoRoot,
      // Starting from the run's migrated template takes ~1.7 s where an initdb on disk takes 5 s or more.
      env: { ...process.env, HOLDER_DATA_DIR: dataDir, HOLDER_TEMPLATE: pgliteTemplateFile('empty') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => String(chunk).includes('ready') && resolve());
    child.once('exit', (exitCode) => reject(new Error(`holder exited (${exitCode}) before it was ready:\n${stderr}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await once(child, 'exit');
}

describe('DATA_DIR held by another process', () => {
  it('fails fast with a clear message, and opens again once the holder is SIGKILLed', async () => {
    const dataDir = join(scratch, 'server');
    const holder = await startHolder(dataDir, 'server');

    const started = performance.now();
    const error = await openDatabase({ dataDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataDirLockedError);
    // The holder's embedded database process holds the lock: it is what opens the files.
    const databasePid = JSON.parse(await readFile(join(dataDir, 'lock-owner.json'), 'utf8')).pid as number;
    expect(databasePid).not.toBe(holder.pid);
    expect((error as DataDirLockedError).message).toBe(
      `The data directory ${dataDir} is in use by another process (pid ${databasePid}, a running server?). ` +
        'Stop it, or point DATA_DIR elsewhere.',
    );
    expect(performance.now() - started).toBeLessThan(1_000);

    // A killed server's database process notices at once and stops; a restart racing with it waits for it.
    await kill(holder);
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.prisma.appSecret.findUnique({ where: { name: 'holder' } })).toMatchObject({
        value: String(holder.pid),
      });
      expect(await db.ping()).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('a live holder whose lock looks stale', () => {
  it('is never taken over while its pid runs on this host (a busy event loop is not a dead server)', async () => {
    const dataDir = join(scratch, 'busy');
    const holder = await startHolder(dataDir, 'lock-only');
    // As if the holder had not refreshed its lock for ten minutes: proper-lockfile alone would call it stale.
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(join(dataDir, 'lock'), longAgo, longAgo);
    await expect(lockDataDir(dataDir, { staleMs: 5_000 })).rejects.toBeInstanceOf(DataDirLockedError);
    await kill(holder);
    const lock = await lockDataDir(dataDir, { staleMs: 5_000 });
    await lock.release();
  });
});

describe('lockDataDir', () => {
  it('refuses a second lock in the same process until the first is released', async () => {
    const dataDir = join(scratch, 'twice');
    const lock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(`The data directory ${dataDir} is already open in this process`);
    await lock.release();
    await lock.release();
    await (await lockDataDir(dataDir)).release();
  });

  it('takes over a lock of unknown owner only once it is stale', async () => {
    const dataDir = join(scratch, 'stale');
    await mkdir(join(dataDir, 'lock'), { recursive: true });
    await expect(lockDataDir(dataDir, { staleMs: 2_000 })).rejects.toThrow(
      `The data directory ${dataDir} is in use by another process (a running server?).`,
    );
    // Not touched for a minute: its holder stopped refreshing it, wherever it ran.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(join(dataDir, 'lock'), aMinuteAgo, aMinuteAgo);
    await (await lockDataDir(dataDir, { staleMs: 2_000 })).release();
  });

  it('trusts a dead pid only when it was recorded on this host', async () => {
    const dataDir = join(scratch, 'other-host');
    await kill(await startHolder(dataDir, 'lock-only'));
    const ownerPath = join(dataDir, 'lock-owner.json');
    const owner = JSON.parse(await readFile(ownerPath, 'utf8')) as { hostname: string };
    // A volume shared between containers: a pid from another host means nothing here.
    await writeFile(ownerPath, JSON.stringify({ ...owner, hostname: 'elsewhere' }));
    await expect(lockDataDir(dataDir)).rejects.toBeInstanceOf(DataDirLockedError);
    await writeFile(ownerPath, JSON.stringify(owner));
    await (await lockDataDir(dataDir)).release();
  });
});
