/**
 * Where the database runs while the bench loads the API: on a host with 3 or more CPUs PostgreSQL gets a CPU of its own
 * (2: the API and baselines serve on 0, the load generator runs on 1), so its work no longer competes with the API's;
 * on fewer it is left to the scheduler, and the report says so. PGlite's embedded database process keeps the API's
 * CPU either way: an embedded deployment runs the pair together, and issue 12's figures were measured that way.
 * Also finds PostgreSQL's server process, whose CPU (its backends are its children) is the database's CPU per request.
 */
import { cpus } from 'node:os';
import pg from 'pg';
import { canPin, descendantPids, parentPid, pinProcesses } from './children.js';

/** PostgreSQL's CPU when the host has enough. */
export const DATABASE_CPU = 2;

export interface DatabasePinning {
  /** Whether PostgreSQL runs on a CPU of its own. */
  pinned: boolean;
  /** What the report says about it. */
  note: string;
  /** PostgreSQL's server process (postmaster), when it runs on this host and /proc shows it; null otherwise. */
  postgresPid: number | null;
  /** Pins the database processes again (new backends inherit the postmaster's CPU; this catches the older ones). */
  pin: (serverPids: number[]) => void;
}

/** The postmaster of the server a URL reaches: the parent of the backend that answers. */
async function postmasterPid(databaseUrl: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const parent = parentPid(rows[0].pid);
    return parent && parent > 1 ? parent : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function databasePinning(
  database: 'pglite' | 'postgres',
  databaseUrl: string | undefined,
  cores = cpus().length,
): Promise<DatabasePinning> {
  const unpinned = (note: string, postgresPid: number | null = null): DatabasePinning => ({ pinned: false, note, postgresPid, pin: () => undefined });
  if (database === 'pglite') return unpinned("PGlite's embedded database process shares CPU 0 with the API (its CPU is in the API's CPU µs/req)");
  const postgresPid = databaseUrl ? await postmasterPid(databaseUrl) : null;
  const where = postgresPid
    ? `its CPU read from /proc (postmaster ${postgresPid} and its backends: the whole server's, other clients' work included)`
    : 'its CPU not visible here (another host or namespace)';
  if (cores < 3)
    return unpinned(
      `PostgreSQL not pinned away from the API: ${cores} cores (it runs where the scheduler puts it, CPU 0 included); ${where}`,
      postgresPid,
    );
  if (!canPin || !postgresPid)
    return unpinned(`PostgreSQL not pinned: ${canPin ? 'its server process is not visible here' : 'no taskset'}; ${where}`, postgresPid);
  const refused = pinProcesses([postgresPid, ...descendantPids(postgresPid)], DATABASE_CPU);
  if (refused.includes(postgresPid))
    return unpinned(`PostgreSQL not pinned: taskset refused (its processes belong to another user); ${where}`, postgresPid);
  return {
    pinned: true,
    note: `PostgreSQL pinned to CPU ${DATABASE_CPU} (the API and baselines on CPU 0, the load on CPU 1); ${where}`,
    postgresPid,
    pin: () => void pinProcesses([postgresPid, ...descendantPids(postgresPid)], DATABASE_CPU),
  };
}
