/** One read statement's rows (`$n` placeholders, `params` in order): Database.readRows. */
export type RowReader = <T>(sql: string, params: unknown[], options?: ReadOptions) => Promise<T[]>;

export interface ReadOptions {
  /**
   * The statement's best plan depends on its parameters' values (a catalogue search: a narrow price band and a wide one
   * want different indexes), so it is planned for them on every run, never prepared by name for a generic plan
   * (src/db/statement-names.ts). @default false
   */
  planForValues?: boolean;
}

/** A search's reads: planned for their values on every run (ReadOptions.planForValues). */
export const PLAN_FOR_VALUES: ReadOptions = { planForValues: true };

/** How many rows `from` (a table, joins and WHERE, as SQL after FROM) holds: one count statement through `readRows`. */
export async function countRows(readRows: RowReader, from: string, params: unknown[]): Promise<number> {
  const [{ total }] = await readRows<{ total: number }>(`SELECT count(*)::int AS total FROM ${from}`, params);
  return total;
}

/**
 * Every scalar column of a model by its Prisma name (`fields`: the model's ScalarFieldEnum), for a driver read whose
 * row is the model's row. `utc` names the DateTime columns (modelColumn).
 */
export function modelColumns(fields: Record<string, string>, alias: string, utc: readonly string[] = []): string {
  return Object.values(fields)
    .map((column) => modelColumn(column, alias, utc.includes(column)))
    .join(', ');
}

/**
 * One column of a model's row, by its Prisma name. A DateTime column (`utc`) is read as UTC: Prisma keeps UTC wall time
 * in a timestamp column, and pg would take a bare timestamp for local time.
 */
export function modelColumn(column: string, alias: string, utc = false): string {
  return utc ? `${alias}."${column}" AT TIME ZONE 'UTC' AS "${column}"` : `${alias}."${column}"`;
}

/** A statement Database.readRows sent failed (connection, timeout, SQL): a failed read, answered as database_error. */
export class DatabaseReadError extends Error {
  override name = 'DatabaseReadError';
}
