/**
 * Key rows read from the database are trusted for a short lease, so a busy key costs one lookup per lease per node
 * instead of one per request (the lookup was a large share of the CPU of a route that reads no table, and of the
 * embedded database's work on a one-statement route: docs/performance.md, Levers).
 *
 * Why a revocation still takes effect from the next request: a row is trusted for `ms` from the moment its read was
 * sent, and `npm run -s keys -- revoke` waits the same `ms` after its commit before it reports the key revoked
 * (src/cli/keys.ts). Any row read before the commit was sent before it, so no node trusts it once the command has
 * returned, on any database and any number of nodes, with no channel between them. Elapsed time is measured on a
 * monotonic clock, so a wall-clock step cannot stretch a lease.
 *
 * Only rows found are kept: a key issued a moment ago works on its first request. The presented key is still hashed
 * and compared with the row's hash on every request.
 */
export interface KeyLeaseOptions {
  /** How long a read row is trusted, milliseconds; 0 reads every request's key. */
  ms: number;
  /** Monotonic milliseconds. @default performance.now */
  clock?: () => number;
  /** Most rows kept; the least recently read go first. @default 10000 */
  maxRows?: number;
}

export interface KeyLease<Row> {
  /** The row for `prefix`, from the lease when one holds, else from `read` (kept when it finds one). */
  row: (prefix: string, read: () => Promise<Row | undefined>) => Promise<Row | undefined>;
}

export function createKeyLease<Row>(options: KeyLeaseOptions): KeyLease<Row> {
  const clock = options.clock ?? (() => performance.now());
  const maxRows = options.maxRows ?? 10_000;
  const rows = new Map<string, { row: Row; readAt: number }>();
  return {
    async row(prefix, read) {
      const held = rows.get(prefix);
      if (held && clock() - held.readAt < options.ms) return held.row;
      // Taken before the read is sent: the row reflects the database at some moment after it.
      const readAt = clock();
      const row = await read();
      rows.delete(prefix);
      if (row === undefined) return undefined;
      if (rows.size >= maxRows) rows.delete(rows.keys().next().value!);
      rows.set(prefix, { row, readAt });
      return row;
    },
  };
}
