import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPGlite } from './pglite.js';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { parse as parseArray } from 'postgres-array';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.js';
import {
  attachOrStartEmbeddedDatabase,
  EMBEDDED_POOL_SIZE,
  startEmbeddedDatabase,
  type EmbeddedDatabaseOptions,
} from './embedded/embedded-database.js';
import { socketDatabaseUrl, socketFile } from './embedded/socket-path.js';
import { serveWireProtocol } from './embedded/wire-server.js';
import { applyMigrations, type MigrationTarget } from './migrate.js';
import { DatabaseReadError, type ReadOptions, type RowReader } from './row-reader.js';
import { createStatementNames, namingPlugin, type StatementNames } from './statement-names.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface QueryEvent {
  /** The SQL text sent (by Prisma or a driver read), with `$n` placeholders. */
  query: string;
  /** Its parameter values, decoded only when asked (bench:scale --explain runs the statement again with them). */
  params: () => unknown[];
  durationMs: number;
}

/** The connection pool between Prisma and the database, as counted now. */
export interface PoolStats {
  /** Connections open, in use or idle. */
  open: number;
  /** Open connections no query is using. */
  idle: number;
  /** Queries waiting for a connection (all `max` are busy). */
  waiting: number;
  /** The pool's size limit. */
  max: number;
}

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /**
   * One read statement sent straight through the pool's driver, not Prisma's client: for the statement every request
   * runs (the API key lookup), the aggregate lists, which read no model, the inspiration gallery and blog posts, whose
   * rows pg returns as Prisma does. Prisma's raw query and its model reads cost clearly more CPU per call than pg's
   * own (docs/performance.md, Levers). onQuery's listeners see it as they see
   * Prisma's statements.
   */
  readRows: RowReader;
  /** Subscribes to every SQL statement Prisma runs or readRows sends (SQL-count tests, bench, metrics); returns the unsubscribe function. */
  onQuery(listener: (event: QueryEvent) => void): () => void;
  /** The pool's counts now (metrics). */
  poolStats(): PoolStats;
  /** True when a trivial query answers within 2 s (GET /healthz). */
  ping(): Promise<boolean>;
  /** Disconnects Prisma, closes PGlite or the pg pool, releases the data directory lock. Idempotent. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…`: PostgreSQL through @prisma/adapter-pg. Takes precedence over the PGlite options. */
  databaseUrl?: string;
  /**
   * The embedded database: PGlite persisted under `${dataDir}/pglite`, run by its own process (which locks the
   * directory against other processes) and reached over a Unix socket.
   */
  dataDir?: string;
  /** Use the embedded database process a running server owns, when there is one (keys CLI, `npm run mcp`). */
  shareEmbedded?: boolean;
  /** Told when the embedded database process died (and whether it was restarted). */
  onEmbeddedProcessExit?: EmbeddedDatabaseOptions['onProcessExit'];
  /** Starts a new embedded data directory from a `dumpDataDir()` tarball file (tests). */
  templateFile?: string;
  /** In-memory PGlite in this process (tests); wins over `dataDir`. */
  memory?: boolean;
  /** Starts the in-memory PGlite from a `dumpDataDir()` tarball (test templates). */
  loadDataDir?: Blob | File;
  /** Apply pending migrations before returning. @default true */
  migrate?: boolean;
  /**
   * Run the statements whose plan cannot depend on their values as named prepared statements (statement-names.ts).
   * PostgreSQL: on unless false (off for a pooler in transaction mode that cannot carry them). The embedded database
   * never: its socket server runs every client in one session, where two connections' statements would collide. In
   * memory: only when true, with `poolSize: 1` (the one client of its socket), so tests can see the names.
   * @default true on PostgreSQL
   */
  preparedStatements?: boolean;
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

function createPrisma(adapter: SqlDriverAdapterFactory, statementNames?: StatementNamesByKind): PrismaClient {
  return new PrismaClient({
    adapter,
    log: [{ emit: 'event', level: 'query' }],
    ...(statementNames && { comments: [namingPlugin(statementNames.prisma)] }),
  });
}

function createDatabase(
  { prisma, pool, statementNames }: PooledPrisma,
  kind: DatabaseKind,
  target: MigrationTarget,
  closeDriver: () => Promise<void>,
): Database {
  const listeners = new Set<(event: QueryEvent) => void>();
  let subscribed = false;
  let closing: Promise<void> | undefined;
  const db: Database = {
    prisma,
    kind,
    async readRows<T>(sql: string, params: unknown[], options?: ReadOptions) {
      const started = performance.now();
      let rows: T[];
      try {
        const name = options?.planForValues ? undefined : statementNames?.driver.name(sql);
        rows = (await pool.query({ name, text: sql, values: params })).rows as T[];
      } catch (cause) {
        throw new DatabaseReadError('a read statement failed', { cause });
      }
      for (const notify of listeners) notify({ query: sql, params: () => params, durationMs: performance.now() - started });
      return rows;
    },
    onQuery(listener) {
      // Subscribed on first use, so a server nobody observes pays nothing beyond Prisma's own event.
      if (!subscribed) {
        subscribed = true;
        (prisma as PrismaClient<'query'>).$on('query', (event) => {
          for (const notify of listeners)
            notify({ query: event.query, params: () => JSON.parse(event.params) as unknown[], durationMs: event.duration });
        });
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    poolStats: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
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

/** How long a statement waits for a pooled connection (all busy, or the server unreachable) before it fails. */
export const POOL_CHECKOUT_TIMEOUT_MS = 5_000;

/**
 * Options for a request's interactive transaction. Prisma's defaults give it 2 s to get a connection and 5 s in all:
 * behind a burst of reads a write then failed where any single statement would still have waited its turn.
 */
export const REQUEST_TRANSACTION = { maxWait: POOL_CHECKOUT_TIMEOUT_MS, timeout: 10_000 } as const;

/**
 * The pg pool every PostgreSQL and embedded connection comes from.
 *
 * pg emits `error` on a connection the server drops (a restart's 57P01, pg_terminate_backend, a reset socket) and
 * pg-pool listens only while the connection is idle or running `pool.query`: a connection checked out between two
 * statements has no listener, and the event would be an uncaught exception that ends the process. Every connection
 * gets a listener for its whole life; the pool still drops a broken one on release (it is no longer queryable), and
 * the statement that was using it fails as database_error.
 */
export function createPgPool(databaseUrl: string, poolSize: number): pg.Pool {
  useFastTextArrays();
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // Connections the pool opened stay open: a connection closed after 10 s idle (pg-pool's default) and opened again
    // for the next burst costs that request a connection handshake and a backend with empty catalogue caches.
    min: poolSize,
    // Fail a request instead of queueing it forever when the server is unreachable.
    connectionTimeoutMillis: POOL_CHECKOUT_TIMEOUT_MS,
  });
  pool.on('connect', (connection) => connection.on('error', ignoreDroppedConnection));
  return pool;
}

/** PostgreSQL's type OID of text[] (pg's typings list scalar OIDs only, hence the cast). */
export const TEXT_ARRAY_OID = 1009 as unknown as Parameters<typeof pg.types.setTypeParser>[0];

/**
 * text[] columns (venue amenities, vendor service areas and specialties) are read with postgres-array 3's parser, the
 * one adapter-pg already uses for its own array types. pg's default (postgres-array 2) builds an object for every
 * character and joins them again: 4 % of a 20-venue search's CPU. The registry is pg's, global to the process (the
 * adapter asks it for every type it does not parse itself), and both parsers read PostgreSQL's array text alike:
 * quotes, backslash escapes, NULL, nesting (test/db/text-arrays.test.ts).
 */
function useFastTextArrays(): void {
  pg.types.setTypeParser(TEXT_ARRAY_OID, parseArray);
}

/** The failure reaches whoever uses the connection next (its query fails); the event itself needs no handling. */
function ignoreDroppedConnection(): void {}

/**
 * A pg pool through adapter-pg: the one driver path, for PostgreSQL and the embedded database alike. The pool is ours
 * (not the adapter's own) so the metrics can read its counts; the adapter still ends it on $disconnect.
 */
interface PooledPrisma {
  prisma: PrismaClient;
  pool: pg.Pool;
  /** Prepared statements' names by SQL text, when statements are named (OpenDatabaseOptions.preparedStatements). */
  statementNames?: StatementNamesByKind;
}

/** Prisma's statements and the driver reads are named and bounded apart. */
interface StatementNamesByKind {
  prisma: StatementNames;
  driver: StatementNames;
}

function createPooledPrisma(databaseUrl: string, poolSize: number, statementNames?: PooledPrisma['statementNames']): PooledPrisma {
  const pool = createPgPool(databaseUrl, poolSize);
  // A dropped idle connection (server restart, pg_terminate_backend) is replaced by the pool on its next checkout;
  // the adapter's listener keeps it from crashing the process.
  // The cast bridges two copies of @types/pg (adapter-pg bundles a newer one); at run time both name this one `pg`.
  const adapter = new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], {
    onPoolError: () => {},
    disposeExternalPool: true,
    // Named by namingPlugin just before the adapter sends the text. The adapter hands the name to pg as it is:
    // undefined runs the statement unnamed (the type says string only).
    statementNameGenerator: statementNames && ((query) => statementNames.prisma.nameOf(query.sql) as string),
  });
  return { prisma: createPrisma(adapter, statementNames), pool, statementNames };
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<Database> {
  if (options.migrate !== false) await applyMigrations({ kind: 'postgres', databaseUrl });
  const pooled = createPooledPrisma(
    databaseUrl,
    options.poolSize ?? availableParallelism() * 2 + 1,
    options.preparedStatements === false ? undefined : statementNamesByKind(),
  );
  // $disconnect disposes the adapter, which ends the pool (disposeExternalPool).
  return createDatabase(pooled, 'postgres', { kind: 'postgres', databaseUrl }, async () => {});
}

/** The embedded database in its own process under `dataDir` (embedded/database-process.ts). */
async function openEmbedded(options: OpenDatabaseOptions): Promise<Database> {
  const dataDir = options.dataDir as string;
  const embedded = await (options.shareEmbedded ? attachOrStartEmbeddedDatabase : startEmbeddedDatabase)({
    dataDir,
    templateFile: options.templateFile,
    onProcessExit: options.onEmbeddedProcessExit,
  });
  try {
    const target: MigrationTarget = { kind: 'postgres', databaseUrl: embedded.url };
    if (options.migrate !== false) await applyMigrations(target);
    return createDatabase(createPooledPrisma(embedded.url, options.poolSize ?? EMBEDDED_POOL_SIZE), 'pglite', target, () => embedded.stop());
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * In-memory PGlite (tests, benchmarks) served in this process on a private socket: the same adapter-pg path as
 * everywhere else, with the instance at hand for dumps, drift checks and migration diffs.
 */
async function openInMemory(options: OpenDatabaseOptions): Promise<Database> {
  const named = options.preparedStatements === true;
  if (named && options.poolSize !== 1) throw new Error('openDatabase: named statements in memory need poolSize: 1 (one session for every client)');
  const pglite = await createPGlite({ loadDataDir: options.loadDataDir });
  const socketDir = await mkdtemp(join(tmpdir(), 'wv-mem-'));
  try {
    const server = await serveWireProtocol(pglite, socketFile(socketDir));
    const target: MigrationTarget = { kind: 'pglite', pglite };
    if (options.migrate !== false) await applyMigrations(target);
    const pooled = createPooledPrisma(
      socketDatabaseUrl(socketDir),
      options.poolSize ?? EMBEDDED_POOL_SIZE,
      named ? statementNamesByKind() : undefined,
    );
    // The session outlives a connection the pool replaces (after an error): the next one starts without its names,
    // as a new PostgreSQL session would. Queued before anything the pool then runs on it.
    if (named) pooled.pool.on('connect', (connection) => void connection.query('DEALLOCATE ALL').catch(() => {}));
    return createDatabase(pooled, 'pglite', target, async () => {
      await server.close();
      await pglite.close();
      await rm(socketDir, { recursive: true, force: true });
    });
  } catch (error) {
    await pglite.close().catch(() => {});
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Opens the app's database: PostgreSQL when `databaseUrl` is given, else PGlite (in memory or under `dataDir`).
 * Throws DataDirLockedError (data-dir-lock.ts) when another process holds `dataDir`.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  if (options.memory) return openInMemory(options);
  if (!options.dataDir) throw new Error('openDatabase needs databaseUrl, dataDir or memory: true');
  return openEmbedded(options);
}

/** The names of a database's statements, Prisma's and the driver reads' (statement-names.ts). */
function statementNamesByKind(): StatementNamesByKind {
  return { prisma: createStatementNames({ prefix: 'p' }), driver: createStatementNames({ prefix: 'r' }) };
}
