import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * PostgreSQL's memory settings inside PGlite, which runs one session on a WebAssembly memory that grows and never
 * shrinks. initdb's defaults are sized for a server of many sessions: PostgreSQL sizes its shared memory from
 * `shared_buffers` and `max_connections` and writes all of it at start, so 128 MB of buffers and 100 connections'
 * slots (146 MB) were resident in the embedded database process before its first statement; with these, 22 MB.
 * The data files' pages stay in the operating system's page cache, which PGlite reads through, so fewer buffers cost
 * little (docs/operations.md#memory has the figures). `maintenance_work_mem` bounds what an index build or VACUUM
 * takes, and the memory it grew stays with the process.
 */
export const PGLITE_MEMORY_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  /** One session is served (wire-server.ts multiplexes connections onto it); 10 is room for PostgreSQL's reserves. */
  max_connections: '10',
  maintenance_work_mem: '16MB',
};

/**
 * Every PGlite this project opens, for the app, the migrator, its shadow database and tests. The migrations create
 * pg_trgm (trigram indexes for the substring filters, docs/performance.md); PGlite ships it in its contrib set but
 * can only run CREATE EXTENSION, or use such an index, when the extension is loaded here.
 */
export function createPGlite(options: Omit<PGliteOptions, 'extensions' | 'startParams'> = {}): Promise<PGlite> {
  const settings = Object.entries(PGLITE_MEMORY_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return PGlite.create({ ...options, startParams: [...PGlite.defaultStartParams, ...settings], extensions: { pg_trgm } });
}
