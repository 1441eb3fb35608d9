import type { RequestListener } from 'node:http';
import DataLoader from 'dataloader';
import { createServerAdapter } from '@whatwg-node/server';
import type { RowReader } from './db/row-reader.js';
import { postBodies } from './blog/blog.service.js';
import { getSchema } from './graphql/schema.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { answerBytes, compileRoute, matchRoute, orderRoutes, runRoute, type CompiledRoute, type RouteAnswer } from './rest/adapter.js';
import { createLanes, type LaneHost } from './app-lanes.js';
import { restRoutes } from './rest/routes.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { ApiError } from './errors/api-error.js';
import { classify, ROUTE_DOCUMENTS, type ClassifyFacts } from './errors/classify.js';
import { createCursorCodec } from './pagination/cursor.js';
import {
  type AppDeps,
  type Admission,
  type HeaderReader,
  type RequestContext,
  type RequestLoaders,
  type RequestScope,
  type Surface,
} from './http/context.js';
import { requestIdFor } from './http/request-id.js';
import { assertGraphQLGetParams, assertJsonBody, assertUncompressed, readBody } from './http/body.js';
import { errorResponse, json } from './http/responses.js';
import { graphqlErrorResponse, withGraphQLErrorBody } from './graphql/errors.js';
import { createApiCors } from './http/cors.js';
import { asHead, withCaching, withCompression } from './http/conventions.js';
import { deprecationHeaders, isIntrospectionOnly } from './http/deprecation.js';
import { createDeveloperPages, FAVICONS } from './developers/developers.http.js';
import type { Logger } from './logging/logger.js';
import { createDayRates, type DayRate } from './catalogue/exchange-rates.js';
import { presentedKey, refusedKeyError } from './auth/authenticate.js';
import { verifyApiKey, type KeyRow } from './auth/api-keys.service.js';
import { createKeyLease } from './auth/key-lease.js';
import { SPEC_POLICY } from './limits/limits.policy.js';
import {
  checkAssistantCall,
  checkFailedKeyBudget,
  checkKeyless,
  checkKeylessBatch,
  checkRequest,
  countFailedKey,
  countKeyless,
  createLimits,
  type Decision,
} from './limits/limits.service.js';
import { createMemoryStore } from './limits/memory-store.js';
import { createLimiterStore } from './limits/limits.store.js';
import { createHealthProbe } from './http/health.js';
import { createMcpHttpHandler } from './mcp/mcp.http.js';
import { prepareTools, type PreparedTool } from './mcp/mcp.server.js';
import { clientIp, type ServerContext } from './http/client-ip.js';
import { createResponseCache } from './cache/response-cache.js';
import { createMetrics, surfaceOf, type MetricsSurface } from './observability/metrics.js';
import { Request, Response } from './http/fetch-api.js';
import { utf8Bytes } from './http/utf8.js';
import type { App, AppOptions } from './app-options.js';

export type { App, AppOptions, LimiterOptions } from './app-options.js';

const API_PREFIX = '/api/v1';
/** The metrics' route label of a request no route or operation named (GraphiQL, unmatched paths, MCP, pages). */
const FIXED_ROUTES: Record<MetricsSurface, string> = {
  rest: 'unmatched',
  graphql: '/graphql',
  mcp: '/mcp',
  pages: '/developers',
  health: '/healthz',
  other: 'other',
};

/** Builds the whole service: both surfaces over one schema, one context, one error catalogue. No side effects. */
export function createApp(options: AppOptions): App {
  const limiter = options.limiter ?? {};
  const now = options.now ?? (() => new Date());
  const { store, state: limiterStoreState } = createLimiterStore(limiter, { log: options.log, now });
  const metrics = options.metrics
    ? createMetrics({
        limiterStoreState,
        outboxBacklog: () => options.prisma.notificationOutbox.count({ where: { deliveredAt: null } }),
      })
    : undefined;
  const limits = createLimits({
    policy: limiter.policy ?? SPEC_POLICY,
    store,
    fallback: createMemoryStore(),
    log: options.log,
    onDecision: metrics?.limiterDecision,
  });
  const responseCache = options.responseCache?.ttlSeconds
    ? createResponseCache({ generation: () => 0, ...options.responseCache, now, log: options.log })
    : undefined;
  const keyCheck = {
    readRows: options.readRows,
    keyLease: options.keyLease?.ms ? createKeyLease<KeyRow>(options.keyLease) : undefined,
  };
  const deps: AppDeps = {
    limits,
    prisma: options.prisma,
    readRows: options.readRows,
    now,
    baseUrl: options.baseUrl,
    cursors: createCursorCodec(options.cursorSecret),
    log: options.log,
    responseCache,
  };
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const dayRates = createDayRates(deps);
  const schema = getSchema();
  const routes = orderRoutes(restRoutes.map((route) => compileRoute(route, schema)));
  const yoga = createGraphQLServer({ baseUrl: deps.baseUrl, log: deps.log, persistedOperations: options.persistedOperations });
  let openApi: Buffer<ArrayBuffer> | undefined;
  const openApiDocument = () => (openApiDoc ??= buildOpenApiDocument(routes, schema, deps.baseUrl));
  let openApiDoc: ReturnType<typeof buildOpenApiDocument> | undefined;
  const routesById = new Map(routes.map((r) => [r.route.operationId, r]));
  let assistantTools: PreparedTool[] | undefined;
  // §5.2: the keyless assistant server. Each tool call is one keyless request of the client IP, under its budgets.
  const mcp = createMcpHttpHandler({
    tools: () => (assistantTools ??= prepareTools(openApiDocument())),
    baseUrl: deps.baseUrl,
    allowedOrigins: options.mcpAllowedOrigins ?? [],
    maxBodyBytes,
    admitKeyless: (ip, count) => checkKeylessBatch(ip, count, deps),
    countKeyless: (ip, count) => countKeyless(ip, count, deps),
    toApiError: (e, log, requestId) => translate(e, log, requestId, undefined, ROUTE_DOCUMENTS),
    runner: (ip, requestId, log) => async (operationId, args) => {
      await checkAssistantCall(ip, deps);
      const compiled = routesById.get(operationId);
      if (!compiled) throw new Error(`assistant tool: no route ${operationId}`);
      const context: RequestContext = {
        ...deps,
        log,
        requestId,
        surface: 'mcp',
        apiKey: { id: `assistant:${ip}`, prefix: 'assistant', tier: 'free', keyless: true },
        loaders: createLoaders(dayRates, deps.readRows),
        idempotencyKey: null,
      };
      const answer = await runRoute(compiled, { arguments: args }, schema, context);
      // A shared read served from the response cache comes back as its text only.
      return { body: { ...(answer.body ?? (JSON.parse(answer.text) as Record<string, unknown>)), request_id: requestId } };
    },
  });
  const developerPages = createDeveloperPages(deps.baseUrl);
  /** An introspection-only GraphQL request without a key: counted on the IP's keyless budget, runs no resolver of ours. */
  const keylessContext = async (scope: RequestScope, admission: Admission, ip: string): Promise<RequestContext> => {
    await admitKeyless(admission, ip);
    return {
      ...deps,
      log: scope.log,
      requestId: scope.requestId,
      surface: 'graphql',
      apiKey: { id: `keyless:${ip}`, prefix: 'keyless', tier: 'free', keyless: true },
      loaders: createLoaders(dayRates, deps.readRows),
      idempotencyKey: null,
      scope,
    };
  };
  // The §9 headers name fixed dates and this service's changelog: built once, not on every deprecated answer.
  const deprecation = Object.freeze(deprecationHeaders(deps.baseUrl));
  const deprecationEntries = Object.entries(deprecation);
  const health = createHealthProbe({ probe: options.databaseAnswers ?? (() => Promise.resolve(true)), now });

  /** The limiter's headers every response carries (§8.3); a refusal's 429 has Retry-After from its error already. */
  const limiterHeaders = (admission: Admission) => Object.entries(admission.decision?.headers ?? {}).filter(([name]) => name !== 'Retry-After');

  /** §8.4: a request without a key counts against its client IP; refused → 429. */
  async function admitKeyless(admission: Admission, ip: string): Promise<void> {
    admission.decision = await checkKeyless(ip, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
  }

  /**
   * §5.4 then §8: the key is verified before anything is counted (an invalid key's 401 has no rate limit headers);
   * no key at all is a keyless request (counted by IP) answered 401 missing_api_key.
   */
  const contextFor = async (
    headers: HeaderReader,
    scope: RequestScope,
    surface: Surface,
    admission: Admission,
    ip: string,
  ): Promise<RequestContext> => {
    const key = presentedKey(headers);
    if (!key) {
      await admitKeyless(admission, ip);
      throw new ApiError('missing_api_key');
    }
    // An IP that keeps presenting wrong keys is refused before the lookup (brute force, lookup cost); the 401s
    // themselves still carry no rate limit headers (§5.4).
    await checkFailedKeyBudget(ip, deps);
    const apiKey = await verifyApiKey(key, keyCheck);
    if (!apiKey) {
      await countFailedKey(ip, deps);
      throw refusedKeyError(key);
    }
    admission.decision = await checkRequest(apiKey, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
    const idempotencyKey = headers.get('x-idempotency-key');
    // Object.assign, not a spread with more fields after it: once warm, Node 20's V8 gives each such object a hidden
    // class of its own, and every resolver reads this one.
    const { log, requestId } = scope;
    return Object.assign({}, deps, { log, requestId, surface, apiKey, loaders: createLoaders(dayRates, deps.readRows), idempotencyKey, scope });
  };

  async function serve(request: Request, url: URL, scope: RequestScope, admission: Admission, ip: string): Promise<Response> {
    const { requestId, log } = scope;
    const path = url.pathname;
    if ((path === '/developers' || path.startsWith('/developers/') || FAVICONS.has(path)) && request.method === 'GET') {
      try {
        await admitKeyless(admission, ip);
        const page = developerPages(path);
        if (!page) throw new ApiError('route_not_found', { message: `No page ${path}; start at /developers.` });
        return new Response(page.body as BodyInit, { headers: { 'content-type': page.type, 'cache-control': `public, max-age=${page.maxAge}` } });
      } catch (e) {
        return errorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
      }
    }
    if (path === '/healthz' && request.method === 'GET') {
      const { up, checkedAt } = await health();
      return json(up ? 200 : 503, {
        status: up ? 'ok' : 'unavailable',
        database: up ? 'up' : 'down',
        checked_at: checkedAt.toISOString(),
        request_id: requestId,
      });
    }
    if (path === '/mcp') return mcp(request, { ip, requestId, log });
    if (path === '/graphql') {
      // The GraphiQL page opens without a key; the analyst sets the header inside it.
      const wantsPage = request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
      try {
        if (wantsPage) {
          await admitKeyless(admission, ip);
          const page = developerPages('/developers/graphiql')!;
          // The same URL answers JSON to API clients: a cache must not hand this page to them (or their JSON to a browser).
          return new Response(page.body as BodyInit, {
            headers: { 'content-type': page.type, 'cache-control': `public, max-age=${page.maxAge}`, vary: 'Accept' },
          });
        }
        if (request.method === 'GET') assertGraphQLGetParams(url.searchParams);
        if (request.method === 'POST') assertUncompressed(request.headers);
        const body = request.method === 'POST' ? await readBody(request, maxBodyBytes) : undefined;
        // GraphiQL loads the schema before the analyst has pasted a key (its header template still holds the
        // placeholder): an operation that only introspects (__schema, __type, __typename) answers keyless, on the
        // client IP's keyless budget (§8.4), and a key sent with it is not looked at.
        const keylessIntrospection = isIntrospectionOnly(url.searchParams, body);
        const context = keylessIntrospection
          ? await keylessContext(scope, admission, ip)
          : await contextFor(request.headers, scope, 'graphql', admission, ip);
        const answer = await yoga.fetch(request, context, body);
        return await withGraphQLErrorBody(answer, requestId, deps.baseUrl, request.headers.get('accept'));
      } catch (e) {
        return graphqlErrorResponse(translate(e, log, requestId, request.signal), requestId, deps.baseUrl, request.headers.get('accept'));
      }
    }
    if (path === `${API_PREFIX}/openapi.json` && request.method === 'GET') {
      scope.route = path;
      try {
        await admitKeyless(admission, ip);
      } catch (e) {
        return errorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
      }
      openApi ??= utf8Bytes(JSON.stringify(openApiDocument()));
      return new Response(openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    try {
      const matched = path.startsWith(`${API_PREFIX}/`) ? matchRoute(routes, request.method, path.slice(API_PREFIX.length)) : null;
      if (!matched) {
        // With a key, the 404 counts on the key (and carries its rate limit headers); without one, on the client IP.
        if (presentedKey(request.headers)) await contextFor(request.headers, scope, 'rest', admission, ip);
        else await admitKeyless(admission, ip);
        throw new ApiError('route_not_found', { message: `No route matches ${request.method} ${path}.` });
      }
      scope.route = `${API_PREFIX}${matched.compiled.route.path}`;
      const context = await contextFor(request.headers, scope, 'rest', admission, ip);
      // POST bodies are read only for routes that take one, after the key is checked; 413 comes before any parsing.
      if (matched.compiled.route.body) assertJsonBody(request.headers);
      const requestBody = matched.compiled.route.body ? await readBody(request, maxBodyBytes) : undefined;
      const answer = await runRoute(
        matched.compiled,
        { search: url.searchParams, pathValues: matched.pathValues, body: requestBody },
        schema,
        context,
      );
      return routeResponse(answer, answerBytes(answer, requestId), matched.compiled);
    } catch (e) {
      return errorResponse(translate(e, log, requestId, request.signal, ROUTE_DOCUMENTS), requestId, deps.baseUrl);
    }
  }

  const cors = createApiCors(options.corsOrigins);

  const handle = async (original: Request, server?: ServerContext): Promise<Response> => {
    // A preflight (any OPTIONS request) is the browser asking, not the client: nothing is counted or logged.
    if (original.method === 'OPTIONS') return cors.preflight(original);
    const started = performance.now();
    const requestId = requestIdFor(original.headers.get('x-request-id'));
    const log = deps.log.child({ requestId });
    const admission: Admission = {};
    const ip = clientIp(original, server, limiter.trustProxy ?? false);
    // HEAD is GET without the body, on every GET route.
    const head = original.method === 'HEAD';
    const request = head ? new Request(original.url, { method: 'GET', headers: original.headers, signal: original.signal }) : original;
    // Parsed once: serve reads its path and query, this reads the path afterwards.
    const url = new URL(request.url);
    const path = url.pathname;
    const scope: RequestScope = { requestId, log };
    return finish(original, request, await serve(request, url, scope, admission, ip), scope, admission, path, started);
  };

  /** A REST route's answer as serve gives it, before `finish`. */
  function routeResponse(answer: RouteAnswer, body: Buffer<ArrayBuffer>, compiled: CompiledRoute): Response {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (answer.etag) headers.etag = answer.etag;
    if (compiled.route.deprecatedFields) Object.assign(headers, deprecation);
    return new Response(body, { status: answer.status, headers });
  }

  /**
   * What every answer goes through after serving: deprecation headers, caching (ETag, 304), compression, HEAD, the
   * limiter's headers, the request id, CORS; then the request's log line and metrics.
   */
  const finish: LaneHost['finish'] = async (original, request, served, scope, admission, path, started) => {
    const { requestId } = scope;
    if (scope.usedDeprecatedFields) for (const [name, value] of deprecationEntries) served.headers.set(name, value);
    const catalogueRead =
      request.method === 'GET' && ((path.startsWith(`${API_PREFIX}/`) && path !== `${API_PREFIX}/openapi.json`) || path === '/graphql');
    let response = await withCaching(
      request,
      served,
      requestId,
      // A GraphQL answer with field errors (a venue not found, a refused lookup) is HTTP 200 but not a catalogue read to
      // keep for 5 minutes: the client should see the next attempt's answer.
      catalogueRead && !scope.answeredWithErrors && !(served.headers.get('content-type') ?? '').startsWith('text/html'),
    );
    if (scope.cache && (response.status === 200 || response.status === 304)) {
      response.headers.set('x-cache', scope.cache.outcome);
      if (scope.cache.ageSeconds !== undefined) response.headers.set('age', String(scope.cache.ageSeconds));
    }
    response = await withCompression(request, response);
    if (original.method === 'HEAD') response = await asHead(response);
    // A request admitted by the read limit stays counted whatever happens after (a venue-detail or inquiry limit
    // inside it, an error): only a request the read limit itself refused uses no allowance.
    for (const [name, value] of limiterHeaders(admission)) response.headers.set(name, value);
    response.headers.set('x-request-id', requestId);
    cors.apply(original, response);
    recordRequest(original.method, path, response.status, scope, started);
    return response;
  };

  /** The request's log line and metrics. */
  function recordRequest(method: string, path: string, status: number, scope: RequestScope, started: number): void {
    const ms = performance.now() - started;
    scope.log.info({ method, path, status, ms: Math.round(ms) }, 'request');
    if (metrics) {
      const surface = surfaceOf(path);
      // Never the raw path: slugs and unknown paths would make a label value per request.
      const route = scope.route ?? FIXED_ROUTES[surface];
      metrics.observeRequest({ surface, route, method, status, seconds: ms / 1000 });
    }
  }

  const adapter = createServerAdapter<ServerContext>(handle);
  const lane = createLanes({
    log: deps.log,
    baseUrl: deps.baseUrl,
    trustProxy: limiter.trustProxy ?? false,
    maxBodyBytes,
    routes,
    schema,
    yoga,
    contextFor,
    keylessContext,
    routeResponse,
    finish,
    recordRequest,
    limiterHeaders,
    deprecation: deprecationEntries,
    translate,
  });
  const requestListener: RequestListener = (req, res) => {
    const served = lane(req, res);
    if (!served) return void adapter(req, res);
    served.catch((e: unknown) => {
      // finish and the error envelope do not throw; if they ever did, the client gets a reset, not a hang.
      deps.log.error({ err: e }, 'lane failed');
      res.destroy();
    });
  };
  return {
    // The adapter's handleRequest, as node:http requests reach it: its fetch() path keeps every answer alive across
    // young-generation GCs (yoga.ts says why), which in-process callers (tests, bench:scale) would measure.
    fetch: async (request) => adapter.handleRequest(request, {}),
    requestListener,
    limiterStoreState,
    responseCacheState: () => responseCache?.state() ?? 'off',
    metrics,
    close: () => Promise.all([store.close(), limits.fallback.close(), responseCache?.close()]).then(() => undefined),
  };
}

function rateLimited(decision: Decision): ApiError {
  return new ApiError('rate_limit_exceeded', {
    message: `Rate limit exceeded; retry after ${decision.retryAfter} s.`,
    headers: decision.headers,
  });
}

/**
 * What a request that threw answers, classified in the one place errors are (src/errors/classify.ts), for the
 * surface's renderer; an unexpected failure is logged as itself with the request id.
 */
function translate(e: unknown, log: Logger, requestId: string, signal?: { aborted: boolean }, facts?: ClassifyFacts): ApiError {
  const { error, unexpected, cause } = classify(e, facts);
  // A client that hung up mid-request is not a fault of ours: no error-level line, nothing to page anyone about.
  if (unexpected && signal?.aborted) log.info({ requestId }, 'client closed the request before it was answered');
  else if (unexpected) log.error({ err: cause, requestId }, 'unexpected error');
  return error;
}

function createLoaders(dayRate: (pair: string) => Promise<DayRate | null>, readRows: RowReader): RequestLoaders {
  return {
    exchangeRate: new DataLoader((pairs) => Promise.all(pairs.map(dayRate))),
    postBody: new DataLoader((ids) => postBodies(ids, { readRows })),
  };
}
