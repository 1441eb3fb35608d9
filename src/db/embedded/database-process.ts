// The embedded database's own process: PGlite under DATA_DIR, served on a Unix socket (wire-server.ts), so that its
// work never stalls the API's event loop and other local processes (keys CLI, `npm run mcp`, psql) can share it.
// Started and stopped by embedded-database.ts; it holds the data directory lock because it is what opens the files.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPGlite } from '../pglite.js';
import { DataDirLockedError, ensurePrivateDir, lockDataDir } from '../data-dir-lock.js';
import { isOrphanedDatabaseProcess } from './orphan.js';
import { socketFile } from './socket-path.js';
import { serveWireProtocol } from './wire-server.js';

/** Messages to the parent over the IPC channel. */
export type DatabaseProcessMessage = { type: 'ready'; pid: number } | { type: 'locked'; holderPid?: number } | { type: 'failed'; message: string };

/** A parent that has not stopped us this long after a signal is not draining any more. */
const SIGNAL_GRACE_MS = 25_000;
const initdbEntry = fileURLToPath(new URL(`./initdb-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

const dataDir = process.env.EMBEDDED_DATA_DIR as string;
const socketDir = process.env.EMBEDDED_SOCKET_DIR as string;
const templateFile = process.env.EMBEDDED_TEMPLATE_FILE || undefined;
const tell = (message: DatabaseProcessMessage) => process.send?.(message);

// The file system is the database's only authentication (the socket has no password). PGlite writes its files 0666
// whatever the umask, so the data directory itself is this user's alone (0700, as PostgreSQL insists on too); the
// umask covers what this process creates (the lock, the socket directory).
process.umask(0o077);

let stopping: Promise<void> | undefined;
let stopWork: () => Promise<void> = async () => {};
function stop(code: number) {
  stopping ??= stopWork().finally(() => process.exit(code));
}

// The parent drains its requests before it stops us, and they need the database: a terminal's Ctrl-C or a process
// manager's SIGTERM to the whole group must not stop this process first. Without a parent, a signal stops it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!process.connected) return stop(0);
    setTimeout(() => stop(0), SIGNAL_GRACE_MS).unref();
  });
}
// The parent went away (stopped, or killed with -9): nothing may be left holding the lock.
process.on('disconnect', () => stop(0));
process.on('message', (message: { type?: string }) => message?.type === 'stop' && stop(0));

/**
 * A server restarted right after a kill -9 can find the lock still held by its predecessor's database process,
 * which is stopping because its parent is gone: that holder is waited for (a few seconds), any other one is not.
 */
async function lockWhenFree(dir: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      return await lockDataDir(dir);
    } catch (error) {
      const holder = error instanceof DataDirLockedError ? error.holderPid : undefined;
      if (!holder || Date.now() > deadline || !(await isOrphanedDatabaseProcess(holder))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A new data directory is made by a short-lived process (initdb-process.ts says why; fork passes on our node options,
 * the TypeScript loader included), under a temporary name that is renamed once it is complete, so a start stopped
 * half-way leaves nothing that looks like a data directory.
 */
async function createDataDir(dir: string): Promise<void> {
  const partial = `${dir}.new`;
  await rm(partial, { recursive: true, force: true });
  const child = fork(initdbEntry, [partial], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`creating the data directory failed (initdb process: ${signal ?? `exit ${code}`})`);
  await rename(partial, dir);
}

try {
  const lock = await lockWhenFree(dataDir).catch((error: unknown) => {
    if (error instanceof DataDirLockedError) {
      tell({ type: 'locked', holderPid: error.holderPid });
      process.exit(3);
    }
    throw error;
  });
  const fresh = !existsSync(join(dataDir, 'pglite'));
  const loadDataDir = templateFile && fresh ? new Blob([new Uint8Array(await readFile(templateFile))], { type: 'application/x-tar' }) : undefined;
  if (fresh && !loadDataDir) await createDataDir(join(dataDir, 'pglite'));
  const pglite = await createPGlite({ dataDir: join(dataDir, 'pglite'), loadDataDir });
  await ensurePrivateDir(socketDir);
  const server = await serveWireProtocol(pglite, socketFile(socketDir));
  stopWork = async () => {
    await server.close().catch(() => undefined);
    await pglite.close().catch(() => undefined);
    await lock.release();
  };
  if (!process.connected) stop(0);
  tell({ type: 'ready', pid: process.pid });
} catch (error) {
  tell({ type: 'failed', message: (error as Error).message });
  process.exit(1);
}
