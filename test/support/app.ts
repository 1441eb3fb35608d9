import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { createLogger } from '../../src/logging/logger.js';
import { createApiKey, type ApiTier } from '../../src/auth/api-keys.service.js';
import type { Database } from '../../src/db/client.js';
import { createEmptyTestDatabase, createTestDatabase } from './database.js';
import { captureLog } from './run-log.js';
import { SPEC_POLICY, UNREACHABLE_POLICY, type LimitsPolicy } from '../../src/limits/limits.policy.js';
import { enumName } from '../../src/graphql/closed-set.js';
import type { PersistedOperations } from '../../src/graphql/persisted-operations.js';

let appCount = 0;

export const BASE_URL = 'http://api.test';

export interface TestApp {
  app: App;
  db: Database;
  /** One fresh key per tier. */
  keys: Record<ApiTier, string>;
  /** Every log line the app wrote, as text (to prove keys never reach logs). */
  logs: string[];
  rest: (path: string, init?: RequestInit & { key?: string | null }) => Promise<TestResponse>;
  graphql: (
    query: string,
    variables?: Record<string, unknown>,
    init?: { key?: string | null; headers?: Record<string, string>; operationName?: string },
  ) => Promise<TestResponse>;
  /** SQL statements the database ran while `run` ran (batching: nested lists must not add statements per item). */
  statements: (run: () => Promise<unknown>) => Promise<number>;
  close: () => Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Response bodies are JSON of many shapes; tests navigate them freely.
  body: any;
  text: string;
}

async function toTestResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: body stays null
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** An in-process app on its own seeded database, with a key per tier. */
export interface TestAppOptions {
  now?: () => Date;
  /** A database the caller owns (and closes); otherwise the app gets its own and closes it. */
  database?: Database;
  /** With no `database`: start from a migrated but empty catalogue (tests that insert exactly the rows they reason about). */
  empty?: boolean;
  /** 'spec': the real §8 numbers (test/limits/**). @default UNREACHABLE_POLICY: functional tests make hundreds of requests per key */
  limits?: 'spec' | LimitsPolicy;
  /** Limiter state in this Redis. @default process.env.TEST_REDIS_URL (unset: in memory) */
  redisUrl?: string | null;
  /** Redis key prefix; apps sharing one prefix share counters (two "nodes"). @default unique per app */
  keyPrefix?: string;
  /** Honour X-Forwarded-For for keyless limits (tests send it to act as different client IPs). @default false */
  trustProxy?: boolean;
  /** Redis command timeout, ms. */
  commandTimeoutMs?: number;
  /** Keep Prometheus metrics (app.metrics). */
  metrics?: boolean;
  /** CORS_ORIGINS. */
  corsOrigins?: string[];
  /** GRAPHQL_PERSISTED_OPERATIONS' manifest and GRAPHQL_PERSISTED_ONLY, as main.ts passes them. */
  persistedOperations?: PersistedOperations;
  /** Trust a key's row this long once read (main.ts: API_KEY_LEASE_MS). @default none: every request reads its key */
  keyLease?: AppOptions['keyLease'];
  /** PUBLIC_SITE_URL: where `url` and `source_url` fields point. @default the app's own origin (BASE_URL) */
  publicSiteUrl?: string;
  /** The response cache (off unless given); with TEST_REDIS_URL and `shared`, in Redis under this app's key prefix. */
  responseCache?: AppOptions['responseCache'] & { shared?: boolean };
  /** The catalogue's generation as a node follows it. @default () => 0 */
  catalogueGeneration?: () => number;
}

/** A Redis key prefix no other test app (in this or a parallel test file) uses. */
export const uniqueKeyPrefix = () => `wv:test:${process.pid}:${Date.now().toString(36)}:${++appCount}:`;

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await (options.empty ? createEmptyTestDatabase() : createTestDatabase()));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      captureLog(String(chunk));
      done();
    },
  });
  const app = createApp({
    prisma: db.prisma,
    readRows: db.readRows,
    log: createLogger({ level: 'info', destination }),
    baseUrl: BASE_URL,
    publicSiteUrl: options.publicSiteUrl,
    cursorSecret: 'test-cursor-secret-0123456789abcdef0123456789',
    now: options.now,
    databaseAnswers: () => db.ping(),
    metrics: options.metrics,
    corsOrigins: options.corsOrigins,
    persistedOperations: options.persistedOperations,
    keyLease: options.keyLease,
    catalogueGeneration: options.catalogueGeneration,
    responseCache: options.responseCache && {
      ...options.responseCache,
      redisUrl: options.responseCache.shared ? (options.responseCache.redisUrl ?? process.env.TEST_REDIS_URL) : undefined,
    },
    limiter: {
      redisUrl: (options.redisUrl === undefined ? process.env.TEST_REDIS_URL : options.redisUrl) ?? undefined,
      keyPrefix: options.keyPrefix ?? uniqueKeyPrefix(),
      policy: options.limits === 'spec' ? SPEC_POLICY : (options.limits ?? UNREACHABLE_POLICY),
      trustProxy: options.trustProxy,
      commandTimeoutMs: options.commandTimeoutMs,
    },
  });
  // As main.ts does: with metrics on, the app's registry also times this database's statements and reads its pool.
  const stopObservingDatabase = app.metrics?.observeDatabase(db);
  const keys = {} as Record<ApiTier, string>;
  for (const tier of ['free', 'pro', 'partner'] as const) keys[tier] = (await createApiKey({ tier, name: `test ${tier}` }, db)).key;

  const withKey = (headers: HeadersInit | undefined, key: string | null | undefined) => {
    const h = new Headers(headers);
    const chosen = key === undefined ? keys.partner : key;
    if (chosen && !h.has('authorization') && !h.has('x-service-key')) h.set('authorization', `Bearer ${chosen}`);
    return h;
  };
  return {
    app,
    db,
    keys,
    logs,
    rest: async (path, init = {}) => {
      const { key, ...rest } = init;
      return toTestResponse(await app.fetch(new Request(`${BASE_URL}${path}`, { ...rest, headers: withKey(rest.headers, key) })));
    },
    graphql: async (query, variables = {}, init = {}) => {
      const headers = withKey({ 'content-type': 'application/json', accept: 'application/graphql-response+json', ...init.headers }, init.key);
      return toTestResponse(
        await app.fetch(
          new Request(`${BASE_URL}/graphql`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query, variables, operationName: init.operationName }),
          }),
        ),
      );
    },
    statements: async (run) => {
      let count = 0;
      const stop = db.onQuery(() => count++);
      try {
        await run();
      } finally {
        stop();
      }
      return count;
    },
    close: async () => {
      stopObservingDatabase?.();
      await app.close();
      if (!options.database) await db.close();
    },
  };
}

/** Asserts the §7 envelope with the code and param the spec names, and that nothing internal leaks. */
export function expectRestError(res: TestResponse, status: number, code: string, param?: string) {
  const context = `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 500)}`;
  expect(res.status, context).toBe(status);
  expect(res.body?.error?.code, context).toBe(code);
  if (param !== undefined) expect(res.body.error.param, context).toBe(param);
  expect(res.body.error.request_id, context).toBe(res.headers.get('x-request-id'));
  expect(res.body.error.doc_url, context).toBe(`${BASE_URL}/developers/errors#${code}`);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+|SELECT |Prisma|wv_live_/);
}

/** Asserts the GraphQL error of one field carries the catalogue's facts in extensions. */
export function expectGraphQLError(res: TestResponse, code: string, param?: string) {
  const context = `request ${res.headers.get('x-request-id')}: ${res.text.slice(0, 500)}`;
  const error = res.body?.errors?.[0];
  expect(error?.extensions?.code, context).toBe(code);
  if (param !== undefined) expect(error.extensions.param, context).toBe(param);
  expect(error.extensions.requestId, context).toBe(res.headers.get('x-request-id'));
  expect(error.extensions.docUrl).toBe(`${BASE_URL}/developers/errors#${code}`);
  expect(typeof error.extensions.type).toBe('string');
  expect(typeof error.extensions.status).toBe('number');
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+|SELECT |Prisma|wv_live_/);
}

/** snake_case REST name → camelCase GraphQL name (a GraphQL field is the camelCase of its REST field). */
export const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Deep snake_case → camelCase of an object's keys, to compare a REST body with the GraphQL result. */
export function camelKeys(value: unknown, keepValuesOf: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => camelKeys(v, keepValuesOf));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), keepValuesOf.includes(k) ? v : camelKeys(v, keepValuesOf)]));
  }
  return value;
}

/**
 * A camelCased REST body as GraphQL answers it: closed sets are GraphQL enums (issue 14), so the values under `keys`
 * (a string or a list of strings) become their GraphQL names (per_stay → PER_STAY).
 */
export function withEnumNames(value: unknown, keys: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => withEnumNames(v, keys));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (!keys.includes(k)) return [k, withEnumNames(v, keys)];
        return [k, Array.isArray(v) ? v.map((x) => enumName(x as string)) : typeof v === 'string' ? enumName(v) : v];
      }),
    );
  }
  return value;
}
