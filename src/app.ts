import DataLoader from 'dataloader';
import { createServerAdapter } from '@whatwg-node/server';
import type { PrismaClient } from './generated/prisma/client.js';
import { getSchema } from './graphql/schema.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { compileRoute, matchRoute, orderRoutes, runRoute } from './rest/adapter.js';
import { restRoutes } from './rest/routes.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { ApiError } from './errors/api-error.js';
import { toApiError } from './errors/translate.js';
import { createCursorCodec } from './pagination/cursor.js';
import { requestScope, type AppDeps, type RequestContext, type RequestLoaders, type Surface } from './http/context.js';
import { requestIdFor } from './http/request-id.js';
import { readBody } from './http/body.js';
import { errorResponse, graphqlErrorResponse, json } from './http/responses.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './http/cors.js';
import type { Logger } from './logging/logger.js';
import { createDayRates, type DayRate } from './catalogue/exchange-rates.js';
import { presentedKey } from './auth/authenticate.js';
import { verifyApiKey } from './auth/api-keys.service.js';
import { SPEC_POLICY, type LimitsPolicy } from './limits/limits.policy.js';
import { checkKeyless, checkRequest, createLimits, refund, type Decision } from './limits/limits.service.js';
import { createMemoryStore } from './limits/memory-store.js';
import { createRedisStore } from './limits/redis-store.js';
import { clientIp, type ServerContext } from './http/client-ip.js';

export interface AppOptions {
  prisma: PrismaClient;
  log: Logger;
  /** Public origin, no trailing slash. */
  baseUrl: string;
  /** HMAC secret for pagination cursors; every node of a deployment must share it. */
  cursorSecret: string;
  /** Injected clock. @default () => new Date() */
  now?: () => Date;
  /** Largest request body in bytes. @default 65536 */
  maxBodyBytes?: number;
  /** Answers GET /healthz. */
  databaseAnswers?: () => Promise<boolean>;
  /** Rate limits (§8). @default the spec's numbers, kept in this process */
  limiter?: LimiterOptions;
}

export interface LimiterOptions {
  /** redis://… keeps every log in Redis, shared exactly by all nodes; unset keeps them in this process. */
  redisUrl?: string;
  /** Prefix of every Redis key (separate deployments or test apps on one Redis). @default 'wv:rl:' */
  keyPrefix?: string;
  /** The numbers. Only tests change them; the server always runs SPEC_POLICY. @default SPEC_POLICY */
  policy?: LimitsPolicy;
  /** Take the client IP for keyless limits from X-Forwarded-For (behind one trusted proxy). @default false */
  trustProxy?: boolean;
  /** Redis command timeout, milliseconds. @default 500 */
  commandTimeoutMs?: number;
}

export interface App {
  /** In-process Fetch API entry point (tests, graphql-http audits). */
  fetch: (request: Request) => Promise<Response>;
  /** node:http request listener. */
  requestListener: ReturnType<typeof createServerAdapter>;
  /** Releases the limiter's Redis connection. */
  close: () => Promise<void>;
}

const API_PREFIX = '/api/v1';

/** Builds the whole service: both surfaces over one schema, one context, one error catalogue. No side effects. */
export function createApp(options: AppOptions): App {
  const limiter = options.limiter ?? {};
  const store = limiter.redisUrl
    ? createRedisStore({
        url: limiter.redisUrl,
        keyPrefix: limiter.keyPrefix,
        commandTimeoutMs: limiter.commandTimeoutMs,
        onConnectionError: (err) => options.log.warn({ err: { message: err.message } }, 'limiter: Redis connection error'),
      })
    : createMemoryStore();
  const limits = createLimits({ policy: limiter.policy ?? SPEC_POLICY, store, fallback: createMemoryStore(), log: options.log });
  const deps: AppDeps = {
    limits,
    prisma: options.prisma,
    now: options.now ?? (() => new Date()),
    baseUrl: options.baseUrl,
    cursors: createCursorCodec(options.cursorSecret),
    log: options.log,
  };
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const dayRates = createDayRates(deps);
  const schema = getSchema();
  const routes = orderRoutes(restRoutes.map((route) => compileRoute(route, schema)));
  const yoga = createGraphQLServer({ baseUrl: deps.baseUrl, log: deps.log });
  let openApi: string | undefined;

  /** What the limiter decided for the request being served; its headers go on the response (§8.3). */
  interface Admission {
    decision?: Decision;
  }

  /** §8.4: a request without a key counts against its client IP; refused → 429. */
  async function admitKeyless(admission: Admission, ip: string): Promise<void> {
    admission.decision = await checkKeyless(ip, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
  }

  /**
   * §5.4 then §8: the key is verified before anything is counted (an invalid key's 401 has no rate limit headers);
   * no key at all is a keyless request (counted by IP) answered 401 missing_api_key.
   */
  const contextFor = async (request: Request, requestId: string, log: Logger, surface: Surface, admission: Admission, ip: string): Promise<RequestContext> => {
    const key = presentedKey(request.headers);
    if (!key) {
      await admitKeyless(admission, ip);
      throw new ApiError('missing_api_key');
    }
    const apiKey = await verifyApiKey(key, deps);
    if (!apiKey) throw new ApiError('invalid_api_key');
    admission.decision = await checkRequest(apiKey, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
    const idempotencyKey = request.headers.get('x-idempotency-key');
    return { ...deps, log, requestId, surface, apiKey, loaders: createLoaders(dayRates), idempotencyKey };
  };

  async function serve(request: Request, requestId: string, log: Logger, admission: Admission, ip: string): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    if (path === '/healthz' && request.method === 'GET') {
      const up = await (options.databaseAnswers ?? (() => Promise.resolve(true)))().catch(() => false);
      return json(up ? 200 : 503, { status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down', request_id: requestId });
    }
    if (path === '/graphql') {
      // The GraphiQL page opens without a key; the analyst sets the header inside it.
      const wantsPage = request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
      try {
        if (wantsPage) {
          await admitKeyless(admission, ip);
          return await yoga.fetch(request, {} as RequestContext);
        }
        const context = await contextFor(request, requestId, log, 'graphql', admission, ip);
        const body = request.method === 'POST' ? await readBody(request, maxBodyBytes) : undefined;
        const forwarded = body ? new Request(request.url, { method: 'POST', headers: request.headers, body }) : request;
        return await yoga.fetch(forwarded, context);
      } catch (e) {
        return graphqlErrorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
      }
    }
    if (path === `${API_PREFIX}/openapi.json` && request.method === 'GET') {
      try {
        await admitKeyless(admission, ip);
      } catch (e) {
        return errorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
      }
      openApi ??= JSON.stringify(buildOpenApiDocument(routes, schema, deps.baseUrl));
      return new Response(openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    try {
      const matched = path.startsWith(`${API_PREFIX}/`) ? matchRoute(routes, request.method, path.slice(API_PREFIX.length)) : null;
      if (!matched) {
        // Answered before the key is looked at, so it counts as a keyless request of the client IP.
        await admitKeyless(admission, ip);
        throw new ApiError('route_not_found', { message: `No route matches ${request.method} ${path}.` });
      }
      const context = await contextFor(request, requestId, log, 'rest', admission, ip);
      // POST bodies are read only for routes that take one, after the key is checked; 413 comes before any parsing.
      const requestBody = matched.compiled.route.body ? await readBody(request, maxBodyBytes) : undefined;
      const { status, body } = await runRoute(matched.compiled, { search: url.searchParams, pathValues: matched.pathValues, body: requestBody }, schema, context);
      return json(status, { ...body, request_id: requestId });
    } catch (e) {
      return errorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
    }
  }

  const handle = async (request: Request, server?: ServerContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(request.headers.get('x-request-id'));
    const log = deps.log.child({ requestId });
    const admission: Admission = {};
    const ip = clientIp(request, server, limiter.trustProxy ?? false);
    const response = await requestScope.run({ requestId, log }, () => serve(request, requestId, log, admission, ip));
    let limitHeaders = admission.decision?.headers;
    // An admitted request answered 429 (a venue-detail limit inside it) gives its slot back: a refused request
    // never uses up allowance.
    if (response.status === 429 && admission.decision?.ticket) {
      limitHeaders = await refund(admission.decision.ticket, deps).catch(() => limitHeaders);
    }
    for (const [name, value] of Object.entries(limitHeaders ?? {})) if (name !== 'Retry-After') response.headers.set(name, value);
    response.headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(CORS_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value);
    log.info({ method: request.method, path: new URL(request.url).pathname, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
    return response;
  };

  const requestListener = createServerAdapter<ServerContext>(handle);
  return { fetch: (request) => handle(request), requestListener, close: () => Promise.all([store.close(), limits.fallback.close()]).then(() => undefined) };
}

function rateLimited(decision: Decision): ApiError {
  return new ApiError('rate_limit_exceeded', {
    message: `Rate limit exceeded; retry after ${decision.retryAfter} s.`,
    headers: decision.headers,
  });
}

function translate(e: unknown, log: Logger, requestId: string): ApiError {
  const { error, unexpected } = toApiError(e);
  if (unexpected) log.error({ err: e, requestId }, 'unexpected error');
  return error;
}

function createLoaders(dayRate: (pair: string) => Promise<DayRate | null>): RequestLoaders {
  return { exchangeRate: new DataLoader((pairs) => Promise.all(pairs.map(dayRate))) };
}
