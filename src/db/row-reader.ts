/** One read statement's rows (`$n` placeholders, `params` in order): Database.readRows. */
export type RowReader = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** How many rows `from` (a table, joins and WHERE, as SQL after FROM) holds: one count statement through `readRows`. */
export async function countRows(readRows: RowReader, from: string, params: unknown[]): Promise<number> {
  const [{ total }] = await readRows<{ total: number }>(`SELECT count(*)::int AS total FROM ${from}`, params);
  return total;
}

/** A statement Database.readRows sent failed (connection, timeout, SQL): a failed read, answered as database_error. */
export class DatabaseReadError extends Error {
  override name = 'DatabaseReadError';
}
