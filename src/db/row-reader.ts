/** One read statement's rows (`$n` placeholders, `params` in order): Database.readRows. */
export type RowReader = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** A statement Database.readRows sent failed (connection, timeout, SQL): a failed read, answered as database_error. */
export class DatabaseReadError extends Error {
  override name = 'DatabaseReadError';
}
