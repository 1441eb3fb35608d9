import type { PrismaClient } from '../generated/prisma/client.js';

/** One read statement's rows (`$n` placeholders, `params` in order): Database.readRows, or prismaRowReader. */
export type RowReader = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** A statement Database.readRows sent failed (connection, timeout, SQL): a failed read, answered as database_error. */
export class DatabaseReadError extends Error {
  override name = 'DatabaseReadError';
}

/** The same reader through Prisma's raw query, for an app given a PrismaClient alone (tests that stand in for it). */
export function prismaRowReader(prisma: PrismaClient): RowReader {
  return <T>(sql: string, params: unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...params);
}
