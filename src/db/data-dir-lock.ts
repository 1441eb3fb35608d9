import { chmod, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';

/** Thrown when another live process holds the data directory. Its message is meant to be shown as is. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  readonly code = 'DATA_DIR_LOCKED';

  constructor(
    /** The directory as the caller spelled it (e.g. `./.data`). */
    readonly dataDir: string,
    /** Process id of the holder, when it recorded one on this host. */
    readonly holderPid?: number,
  ) {
    const holder = holderPid === undefined ? 'a running server?' : `pid ${holderPid}, a running server?`;
    super(
      holderPid === process.pid
        ? `The data directory ${dataDir} is already open in this process: close the first database before reopening it.`
        : `The data directory ${dataDir} is in use by another process (${holder}). Stop it, or point DATA_DIR elsewhere.`,
    );
  }
}

export interface DataDirLock {
  /** Idempotent. */
  release(): Promise<void>;
}

export interface LockDataDirOptions {
  /**
   * A lock whose directory has not been touched for this long is taken over, whoever holds it. The holder touches it
   * every `staleMs / 2`; a holder on this host that has died is detected at once through its pid instead.
   * @default 30_000 (ms; proper-lockfile's minimum is 2_000)
   */
  staleMs?: number;
  /**
   * Called when the lock was taken over or removed behind our back. By default it throws from a timer, ending the
   * process: another process may now be writing the same PGlite files, and going on would corrupt them.
   */
  onCompromised?: (error: Error) => void;
}

/** Recorded next to the lock (proper-lockfile removes the lock with rmdir, so nothing may live inside it). */
interface LockOwner {
  pid: number;
  hostname: string;
  /** Identity of the lock directory this record describes, so a record left by an earlier holder is not trusted. */
  lock: string;
}

const LOCK_NAME = 'lock';
const OWNER_NAME = 'lock-owner.json';
/** Directories locked by this process: a second open of one of them must fail too, not look like a stale lock. */
const heldByThisProcess = new Set<string>();

async function lockIdentity(lockPath: string): Promise<string | undefined> {
  const info = await stat(lockPath).catch(() => undefined);
  return info && `${info.ino}:${info.birthtimeMs}`;
}

async function readOwner(dataDir: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(join(dataDir, OWNER_NAME), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** The pid the current holder recorded, if any (for messages; the lock itself decides). */
export async function recordedHolderPid(dataDir: string): Promise<number | undefined> {
  return (await readOwner(dataDir))?.pid;
}

/** Whether a process with this pid runs on this host. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A holder is known to be gone only when it recorded itself on this host for the current lock directory and its pid
 * no longer runs (or is our own pid while we do not hold it: a restarted container often gets the same pid).
 */
async function holderIsGone(dataDir: string, owner: LockOwner | undefined): Promise<boolean> {
  if (!owner || owner.hostname !== hostname()) return false;
  if (owner.lock !== (await lockIdentity(join(dataDir, LOCK_NAME)))) return false;
  if (owner.pid === process.pid) return !heldByThisProcess.has(resolve(dataDir));
  return !isAlive(owner.pid);
}

/**
 * Creates `dir` (and its parents) if needed and makes it readable by this user only, whatever it was: PGlite writes
 * its files 0666 whatever the umask, so the directory is what keeps key hashes and leads from other local users.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * Locks a PGlite data directory for this process, creating the directory if needed (private: ensurePrivateDir). PGlite has no lock of its own,
 * and two processes writing the same files corrupt them. Fails fast with DataDirLockedError when a live process
 * holds it; a lock left by a killed process is taken over (at once on this host, after `staleMs` otherwise).
 */
export async function lockDataDir(dataDir: string, options: LockDataDirOptions = {}): Promise<DataDirLock> {
  await ensurePrivateDir(dataDir);
  const key = resolve(dataDir);
  const lockPath = join(dataDir, LOCK_NAME);
  const lockOptions = {
    lockfilePath: lockPath,
    realpath: false,
    stale: options.staleMs ?? 30_000,
    onCompromised:
      options.onCompromised ??
      ((error: Error) => {
        throw error;
      }),
  };
  if (heldByThisProcess.has(key)) throw new DataDirLockedError(dataDir, process.pid);
  // proper-lockfile calls a lock stale when its mtime is older than `staleMs`; a live server whose event loop was
  // busy that long (seeding under load) would lose its lock. A holder recorded on this host that still runs is
  // never taken over, whatever the mtime says.
  const recorded = await readOwner(dataDir);
  if (
    recorded &&
    recorded.pid !== process.pid &&
    recorded.hostname === hostname() &&
    isAlive(recorded.pid) &&
    recorded.lock === (await lockIdentity(lockPath))
  ) {
    throw new DataDirLockedError(dataDir, recorded.pid);
  }
  let unlock: () => Promise<void>;
  try {
    unlock = await lockfile.lock(key, lockOptions);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = await readOwner(dataDir);
    if (!(await holderIsGone(dataDir, owner))) throw new DataDirLockedError(dataDir, owner?.pid);
    await rmdir(lockPath).catch(() => {});
    try {
      unlock = await lockfile.lock(key, lockOptions);
    } catch (retryError) {
      // Someone else took over the dead holder's lock between our two attempts.
      if ((retryError as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
      throw retryError;
    }
  }
  heldByThisProcess.add(key);

  const ownerPath = join(dataDir, OWNER_NAME);
  try {
    const owner: LockOwner = { pid: process.pid, hostname: hostname(), lock: (await lockIdentity(lockPath)) ?? '' };
    // Written aside and renamed, so a reader never sees half a record.
    await writeFile(`${ownerPath}.${process.pid}`, JSON.stringify(owner));
    await rename(`${ownerPath}.${process.pid}`, ownerPath);
  } catch (error) {
    heldByThisProcess.delete(key);
    await unlock();
    throw error;
  }

  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      heldByThisProcess.delete(key);
      await rm(ownerPath, { force: true });
      await unlock().catch((error: NodeJS.ErrnoException) => {
        // Already gone when the lock was compromised; onCompromised has reported that.
        if (error.code !== 'ERELEASED' && error.code !== 'ENOTACQUIRED') throw error;
      });
    },
  };
}
