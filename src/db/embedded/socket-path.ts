import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The file name PostgreSQL clients derive from a socket directory and port 5432. */
const SOCKET_FILE = '.s.PGSQL.5432';
/** sun_path holds 108 bytes on Linux (104 on macOS); keep a margin. */
const MAX_SOCKET_PATH = 100;

/**
 * Where the embedded database process listens for `dataDir`: `<dataDir>/run`, or, when that path is too long for a
 * Unix socket, a directory in the system temp dir named after the data directory (the same for every process).
 */
export function embeddedSocketDir(dataDir: string): string {
  const inDataDir = join(resolve(dataDir), 'run');
  if (join(inDataDir, SOCKET_FILE).length <= MAX_SOCKET_PATH) return inDataDir;
  return join(tmpdir(), `wv-db-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}`);
}

export function socketFile(socketDir: string): string {
  return join(socketDir, SOCKET_FILE);
}

/** A libpq-style URL whose host is the socket directory, understood by pg, adapter-pg and the schema engine alike. */
export function socketDatabaseUrl(socketDir: string): string {
  return `postgresql://postgres@${encodeURIComponent(socketDir)}/postgres`;
}
