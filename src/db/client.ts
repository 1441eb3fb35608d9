import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { applyMigrations, type MigrationTarget } from './migrate.js';
import { createPGliteAdapterFactory } from './pglite-adapter.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface QueryEvent {
  /** The SQL text Prisma sent, with `$n` placeholders. */
  query: string;
  durationMs: number;
}

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** Subscribes to every SQL statement Prisma runs (SQL-count tests, bench); returns the unsubscribe function. */
  onQuery(listener: (event: QueryEvent) => void): () => void;
  /** True when a trivial query answers within 2 s (GET /healthz). */
  ping(): Promise<boolean>;
  /** Disconnects Prisma, closes PGlite or the pg pool, releases the data directory lock. Idempotent. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…`: PostgreSQL through @prisma/adapter-pg. Takes precedence over the PGlite options. */
  databaseUrl?: string;
  /** PGlite persisted under `${dataDir}/pglite`, the directory locked against other processes. */
  dataDir?: string;
  /** In-memory PGlite (tests); wins over `dataDir`. */
  memory?: boolean;
  /** Starts PGlite from a `dumpDataDir()` tarball (test templates); only for a new or in-memory database. */
  loadDataDir?: Blob | File;
  /** Apply pending migrations before returning. @default true */
  migrate?: boolean;
  /** PostgreSQL pool size. @default 2 × CPUs + 1, Prisma's classic connection_limit */
  poolSize?: number;
}

const PING_TIMEOUT_MS = 2_000;
/** Lets callers that own the schema engine work (db-migrate script, tests) reach the database behind a Database. */
const migrationTargets = new WeakMap<Database, MigrationTarget>();

/** What the schema engine needs to migrate or drift-check the database `db` was opened on. */
export function migrationTargetOf(db: Database): MigrationTarget {
  const target = migrationTargets.get(db);
  if (!target) throw new Error('migrationTargetOf: not a Database returned by openDatabase');
  return target;
}

function createPrisma(adapter: SqlDriverAdapterFactory): PrismaClient {
  return new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
}

function createDatabase(prisma: PrismaClient, kind: DatabaseKind, target: MigrationTarget, closeDriver: () => Promise<void>): Database {
  const listeners = new Set<(event: QueryEvent) => void>();
  let subscribed = false;
  let closing: Promise<void> | undefined;
  const db: Database = {
    prisma,
    kind,
    onQuery(listener) {
      // Subscribed on first use, so a server nobody observes pays nothing beyond Prisma's own event.
      if (!subscribed) {
        subscribed = true;
        (prisma as PrismaClient<'query'>).$on('query', (event) => {
          for (const notify of listeners) notify({ query: event.query, durationMs: event.duration });
        });
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async ping() {
      // After close, Prisma would quietly reconnect (and a new pg pool would keep the process alive).
      if (closing) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS).unref();
      });
      try {
        await Promise.race([prisma.$queryRaw`SELECT 1`, timeout]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closing ??= (async () => {
        try {
          await prisma.$disconnect();
        } finally {
          await closeDriver();
        }
      })();
      return closing;
    },
  };
  migrationTargets.set(db, target);
  return db;
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<Database> {
  if (options.migrate !== false) await applyMigrations({ kind: 'postgres', databaseUrl });
  const adapter = new PrismaPg(
    {
      connectionString: databaseUrl,
      max: options.poolSize ?? availableParallelism() * 2 + 1,
      // Fail a request instead of queueing it forever when the server is unreachable.
      connectionTimeoutMillis: 5_000,
    },
    // A dropped idle connection (server restart, pg_terminate_backend) is replaced by the pool on its next checkout;
    // the adapter's listener keeps it from crashing the process.
    { onPoolError: () => {} },
  );
  const prisma = createPrisma(adapter);
  // $disconnect disposes the adapter, which ends the pool it created.
  return createDatabase(prisma, 'postgres', { kind: 'postgres', databaseUrl }, async () => {});
}

async function openPGlite(options: OpenDatabaseOptions): Promise<Database> {
  const inMemory = options.memory === true;
  if (!inMemory && !options.dataDir) throw new Error('openDatabase needs databaseUrl, dataDir or memory: true');
  // Locked before PGlite touches the files: a second process must fail here, not corrupt them.
  const lock: DataDirLock | undefined = inMemory ? undefined : await lockDataDir(options.dataDir as string);
  let pglite: PGlite | undefined;
  try {
    pglite = await PGlite.create({
      dataDir: inMemory ? undefined : join(options.dataDir as string, 'pglite'),
      loadDataDir: options.loadDataDir,
    });
    const target: MigrationTarget = { kind: 'pglite', pglite };
    if (options.migrate !== false) await applyMigrations(target);
    const prisma = createPrisma(createPGliteAdapterFactory(pglite));
    const opened = pglite;
    return createDatabase(prisma, 'pglite', target, async () => {
      try {
        await opened.close();
      } finally {
        await lock?.release();
      }
    });
  } catch (error) {
    await pglite?.close().catch(() => {});
    await lock?.release();
    throw error;
  }
}

/**
 * Opens the app's database: PostgreSQL when `databaseUrl` is given, else PGlite (in memory or under `dataDir`).
 * Throws DataDirLockedError (data-dir-lock.ts) when another process holds `dataDir`.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPGlite(options);
}
