import { createHash } from 'node:crypto';
import { Kind, OperationTypeNode, visit, BREAK, print, type DocumentNode, type ExecutionResult } from 'graphql';
import { LRUCache } from 'lru-cache';
import { connectRedis } from '../db/redis.js';
import { createBreaker, type BreakerState } from '../limits/breaker.js';
import { checkVenueDetail, type LimitsDeps } from '../limits/limits.service.js';
import { ApiError } from '../errors/api-error.js';
import type { ApiKeyIdentity } from '../auth/api-keys.service.js';
import type { Logger } from '../logging/logger.js';

/** §8.10 tells clients to cache search results for 5 minutes; the server never keeps an answer longer. */
export const RESPONSE_CACHE_MAX_TTL_SECONDS = 300;

/** The words clients read (OpenAPI info text, /developers, README), written once. */
export const RESPONSE_CACHE_TEXT =
  'Catalogue reads are answered from a shared response cache for up to 5 minutes (never longer than §8.10 tells ' +
  'clients to cache): `X-Cache: HIT` with an `Age` header, or `X-Cache: MISS`. A hit is still authenticated and ' +
  'counted against every limit first, a venue detail lookup included, and is the same answer a miss would give; a ' +
  'catalogue update retires every cached answer within 5 seconds. Inquiries, `rateLimit` and errors are never cached.';

/** What one execution charged to per-key allowances, and whether its answer may be reused (set while it runs). */
export interface AnswerNotes {
  /** Venue detail lookups counted (§8 row 3): a cached copy of this answer counts them again before it is served. */
  venueLookups: number;
  /** Why this answer must not be reused, e.g. a degraded knowledge answer that the next request may answer fully. */
  doNotReuse?: string;
}

/**
 * What an answer through the cache reads of its request, and notes on it: a request's context (RequestContext,
 * src/graphql/context.ts) is one. The cache sits below the executor and knows no more of it than this.
 */
export interface CachedRequest extends LimitsDeps {
  responseCache?: ResponseCache;
  apiKey: ApiKeyIdentity;
  surface: string;
  answerNotes?: AnswerNotes;
  /** The HTTP request's scope, where X-Cache and Age are noted (unset for assistant tool calls). */
  scope?: { cache?: CacheOutcome };
}

/** Whether the response cache answered (X-Cache), and the answer's age in seconds on a hit (Age). */
export interface CacheOutcome {
  outcome: 'HIT' | 'MISS';
  ageSeconds?: number;
}

export interface ResponseCache {
  readonly kind: 'memory' | 'redis';
  /** 'memory', or the state of the breaker in front of Redis (metrics, tests). */
  state: () => BreakerState | 'memory';
  ttlSeconds: number;
  lookup: (key: string) => Promise<CachedAnswer | null>;
  keep: (key: string, answer: CachedAnswer) => void;
  /** Generation and UTC day of the catalogue now: part of every key, so a catalogue write or a new day misses. */
  epoch: () => string;
  close: () => Promise<void>;
}

export interface CachedAnswer {
  /** The answer as its surface keeps it (AnswerCodec): a GraphQL result's data, or a REST route's rendered body. */
  data: string;
  /** The answer itself, when its codec lets it be served again as it is: kept by the in-process cache only. */
  answer?: unknown;
  /** What `answer` holds, bytes (AnswerCodec.reuse): the in-process cache's bound counts it instead of `data`. */
  size?: number;
  /** When it was computed, Unix ms on the app's clock (Age header). */
  storedAt: number;
  venueLookups: number;
}

export interface ResponseCacheOptions {
  /** Seconds an answer is kept, at most RESPONSE_CACHE_MAX_TTL_SECONDS. */
  ttlSeconds: number;
  /** In-process bound, bytes of JSON. @default 64 MiB */
  maxBytes?: number;
  /** redis://… shares answers between nodes; unset keeps them in this process. */
  redisUrl?: string;
  /** @default 'wv:rc:' */
  keyPrefix?: string;
  /** The catalogue's generation as this node last read it (src/cache/catalogue-generation.ts). */
  generation: () => number;
  now: () => Date;
  log: Logger;
}

const SEPARATOR = '\n';
const encode = (a: CachedAnswer) => `${a.storedAt}${SEPARATOR}${a.venueLookups}${SEPARATOR}${a.data}`;
function decode(text: string): CachedAnswer {
  const first = text.indexOf(SEPARATOR);
  const second = text.indexOf(SEPARATOR, first + 1);
  return { storedAt: Number(text.slice(0, first)), venueLookups: Number(text.slice(first + 1, second)), data: text.slice(second + 1) };
}

/**
 * Answers of catalogue reads, keyed on the operation and its variables (never on the API key), the catalogue's
 * generation and the UTC day (exchange rates and `as_of` dates change at midnight). In this process (LRU, bounded in
 * bytes) or, with a Redis URL, shared by every node behind a circuit breaker: with Redis away every request is a miss
 * and is answered as if there were no cache.
 */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const ttlSeconds = Math.min(Math.max(options.ttlSeconds, 0), RESPONSE_CACHE_MAX_TTL_SECONDS);
  const epoch = () => `${options.generation()}:${options.now().toISOString().slice(0, 10)}`;
  if (!options.redisUrl) {
    // Entries as they are, not as text: a hit hands back the answer kept (AnswerCodec.reuse) without parsing it, and
    // the bound counts what the entry holds.
    const lru = new LRUCache<string, CachedAnswer>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (value, key) => (value.size ?? value.data.length) + key.length,
      ttl: ttlSeconds * 1000,
      // The app's clock, so tests move time instead of waiting; read on every check, since lru-cache otherwise keeps a
      // reading for 1 ms of real time, and a lookup within that millisecond of a clock move saw the time before it.
      perf: { now: () => options.now().getTime() },
      ttlResolution: 0,
    });
    return {
      kind: 'memory',
      state: () => 'memory',
      ttlSeconds,
      epoch,
      lookup: async (key) => lru.get(key) ?? null,
      keep: (key, answer) => void lru.set(key, answer),
      close: async () => lru.clear(),
    };
  }
  const { log } = options;
  const connection = connectRedis({
    url: options.redisUrl,
    keyPrefix: options.keyPrefix ?? 'wv:rc:',
    // A lookup that waits longer than computing the answer would have is worse than a miss.
    commandTimeoutMs: 250,
    onConnectionError: (err) => log.warn({ err }, 'response cache: Redis connection error; answering without the cache'),
  });
  const breaker = createBreaker({
    nowMs: () => options.now().getTime(),
    onStateChange: (state) => log.info({ state }, `response cache: Redis circuit breaker ${state}`),
  });
  const run = async <T>(call: () => Promise<T>): Promise<T | null> => {
    try {
      await connection.firstConnection();
      return await breaker.run(call);
    } catch {
      // Logged once per outage by the connection and the breaker: a cache that is away is only a miss.
      return null;
    }
  };
  return {
    kind: 'redis',
    state: () => breaker.state,
    ttlSeconds,
    epoch,
    lookup: async (key) => {
      const text = await run(() => connection.redis.get(key));
      return text ? decode(text) : null;
    },
    keep: (key, answer) => void run(() => connection.redis.set(key, encode(answer), 'PX', ttlSeconds * 1000)),
    close: connection.close,
  };
}

/**
 * Whether an operation's answer is the same for every caller: a query that selects neither `rateLimit` (per key) nor
 * anything else per caller. Mutations (inquiries) never are.
 */
export function isSharedRead(document: DocumentNode, operationName?: string | null): boolean {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName));
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION || operation.operation !== OperationTypeNode.QUERY) return false;
  let perCaller = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== 'rateLimit') return undefined;
      perCaller = true;
      return BREAK;
    },
  });
  return !perCaller;
}

const operationNames = new WeakMap<DocumentNode, Map<string, string | null>>();
/**
 * A GraphQL operation's name in cache keys (the hash of its printed document and the operation name), or null when
 * it is not a shared read. Decided once per parsed document and operation (Yoga reuses one DocumentNode per query
 * text), so a request never walks or prints its document again.
 */
export function sharedReadOf(document: DocumentNode, operationName?: string | null): string | null {
  let byOperation = operationNames.get(document);
  if (!byOperation) operationNames.set(document, (byOperation = new Map()));
  const name = operationName ?? '';
  let key = byOperation.get(name);
  if (key === undefined) {
    key = isSharedRead(document, operationName) ? `graphql:${createHash('sha256').update(print(document)).digest('base64url')}:${name}` : null;
    byOperation.set(name, key);
  }
  return key;
}

/** How one surface's answers are kept: the text to store (null: this answer is not kept) and the answer back from it. */
export interface AnswerCodec<T> {
  keep: (answer: T) => string | null;
  load: (text: string) => T;
  /**
   * The answer as the in-process cache keeps it and serves it again, and its size in bytes (null: not kept). Nothing
   * changes an answer once made, so a hit hands back this very object instead of loading text.
   */
  reuse?: (answer: T) => { kept: T; bytes: number } | null;
}

/**
 * Answers one shared read through the response cache: a cached answer is served after the per-key allowances its
 * computation charged are charged again (a used-up venue detail allowance makes it a miss, so the computation refuses
 * it exactly as without a cache); otherwise the answer is computed and, when clean (`codec.keep` takes it, nothing
 * degraded), kept. A computation that throws keeps nothing. `operation` null: not a shared
 * read, computed as it is.
 */
export async function answerThroughCache<T>(
  ctx: CachedRequest,
  operation: string | null,
  variables: unknown,
  compute: () => Promise<T> | T,
  codec: AnswerCodec<T>,
): Promise<T> {
  const cache = ctx.responseCache;
  if (!cache || !operation || cache.ttlSeconds === 0) return compute();
  const key = createHash('sha256')
    .update(`${cache.epoch()}\n${operation}\n${JSON.stringify(variables ?? {})}`)
    .digest('base64url');
  const hit = await cache.lookup(key);
  if (hit && (await chargedAgain(hit, ctx))) {
    noteCache(ctx, 'HIT', Math.max(0, Math.floor((ctx.now().getTime() - hit.storedAt) / 1000)));
    return hit.answer !== undefined ? (hit.answer as T) : codec.load(hit.data);
  }
  const notes: AnswerNotes = { venueLookups: 0 };
  ctx.answerNotes = notes;
  const answer = await compute();
  if (!notes.doNotReuse) {
    const storedAt = ctx.now().getTime();
    const reused = cache.kind === 'memory' && codec.reuse ? codec.reuse(answer) : null;
    if (reused) cache.keep(key, { data: '', answer: reused.kept, size: reused.bytes, storedAt, venueLookups: notes.venueLookups });
    else {
      const text = codec.keep(answer);
      if (text !== null) cache.keep(key, { data: text, storedAt, venueLookups: notes.venueLookups });
    }
  }
  noteCache(ctx, 'MISS');
  return answer;
}

/** A GraphQL execution result: its data is kept when it has no errors. */
const executionResults: AnswerCodec<ExecutionResult> = {
  keep: (result) => (!result.errors?.length && result.data ? JSON.stringify(result.data) : null),
  load: (text) => ({ data: JSON.parse(text) as Record<string, unknown> }),
};

/** One GraphQL execution (a /graphql request) through the response cache. */
export function executeThroughCache(
  ctx: CachedRequest,
  operation: string | null,
  variables: unknown,
  execute: () => Promise<ExecutionResult> | ExecutionResult,
): Promise<ExecutionResult> {
  return answerThroughCache(ctx, operation, variables, execute, executionResults);
}

async function chargedAgain(hit: CachedAnswer, ctx: CachedRequest): Promise<boolean> {
  if (hit.venueLookups === 0) return true;
  try {
    await checkVenueDetail(ctx.apiKey, ctx, hit.venueLookups);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'venue_detail_rate_limit_exceeded') return false;
    throw e;
  }
  return true;
}

/** The X-Cache and Age headers of the HTTP answer (the assistant's tool results carry none). */
function noteCache(ctx: CachedRequest, outcome: 'HIT' | 'MISS', ageSeconds?: number) {
  const scope = ctx.scope;
  if (!scope || ctx.surface === 'mcp') return;
  scope.cache = { outcome, ageSeconds };
}
