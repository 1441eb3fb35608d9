import DataLoader from 'dataloader';
import { createServerAdapter } from '@whatwg-node/server';
import type { PrismaClient } from './generated/prisma/client.js';
import { getSchema } from './graphql/schema.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { compileRoute, matchRoute, orderRoutes, runRoute } from './rest/adapter.js';
import { restRoutes } from './rest/routes.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { authenticate } from './auth/authenticate.js';
import { ApiError } from './errors/api-error.js';
import { toApiError } from './errors/translate.js';
import { createCursorCodec } from './pagination/cursor.js';
import { requestScope, type AppDeps, type RequestContext, type RequestLoaders, type Surface } from './http/context.js';
import { requestIdFor } from './http/request-id.js';
import { readBody } from './http/body.js';
import { errorResponse, graphqlErrorResponse, json } from './http/responses.js';
import { CORS_HEADERS, PREFLIGHT_HEADERS } from './http/cors.js';
import type { Logger } from './logging/logger.js';

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
}

export interface App {
  /** In-process Fetch API entry point (tests, graphql-http audits). */
  fetch: (request: Request) => Promise<Response>;
  /** node:http request listener. */
  requestListener: ReturnType<typeof createServerAdapter>;
}

const API_PREFIX = '/api/v1';

/** Builds the whole service: both surfaces over one schema, one context, one error catalogue. No side effects. */
export function createApp(options: AppOptions): App {
  const deps: AppDeps = {
    prisma: options.prisma,
    now: options.now ?? (() => new Date()),
    baseUrl: options.baseUrl,
    cursors: createCursorCodec(options.cursorSecret),
    log: options.log,
  };
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const schema = getSchema();
  const routes = orderRoutes(restRoutes.map((route) => compileRoute(route, schema)));
  const yoga = createGraphQLServer({ baseUrl: deps.baseUrl, log: deps.log });
  let openApi: string | undefined;

  const contextFor = async (request: Request, requestId: string, log: Logger, surface: Surface): Promise<RequestContext> => {
    const apiKey = await authenticate(request.headers, deps);
    return { ...deps, log, requestId, surface, apiKey, loaders: createLoaders(deps) };
  };

  async function serve(request: Request, requestId: string, log: Logger): Promise<Response> {
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
      if (wantsPage) return yoga.fetch(request, {} as RequestContext);
      try {
        const context = await contextFor(request, requestId, log, 'graphql');
        const body = request.method === 'POST' ? await readBody(request, maxBodyBytes) : undefined;
        const forwarded = body ? new Request(request.url, { method: 'POST', headers: request.headers, body }) : request;
        return await yoga.fetch(forwarded, context);
      } catch (e) {
        return graphqlErrorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
      }
    }
    if (path === `${API_PREFIX}/openapi.json` && request.method === 'GET') {
      openApi ??= JSON.stringify(buildOpenApiDocument(routes, schema, deps.baseUrl));
      return new Response(openApi, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    try {
      const matched = path.startsWith(`${API_PREFIX}/`) ? matchRoute(routes, request.method, path.slice(API_PREFIX.length)) : null;
      if (!matched) throw new ApiError('route_not_found', { message: `No route matches ${request.method} ${path}.` });
      const context = await contextFor(request, requestId, log, 'rest');
      const { status, body } = await runRoute(matched.compiled, { search: url.searchParams, pathValues: matched.pathValues }, schema, context);
      return json(status, { ...body, request_id: requestId });
    } catch (e) {
      return errorResponse(translate(e, log, requestId), requestId, deps.baseUrl);
    }
  }

  const handle = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(request.headers.get('x-request-id'));
    const log = deps.log.child({ requestId });
    const response = await requestScope.run({ requestId, log }, () => serve(request, requestId, log));
    response.headers.set('x-request-id', requestId);
    for (const [name, value] of Object.entries(CORS_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value);
    log.info({ method: request.method, path: new URL(request.url).pathname, status: response.status, ms: Math.round(performance.now() - started) }, 'request');
    return response;
  };

  const requestListener = createServerAdapter(handle);
  return { fetch: (request) => handle(request), requestListener };
}

function translate(e: unknown, log: Logger, requestId: string): ApiError {
  const { error, unexpected } = toApiError(e);
  if (unexpected) log.error({ err: e, requestId }, 'unexpected error');
  return error;
}

function createLoaders(deps: AppDeps): RequestLoaders {
  return {
    exchangeRate: new DataLoader(async (pairs) => {
      const today = new Date(deps.now().toISOString().slice(0, 10));
      return Promise.all(
        pairs.map(async (pair) => {
          const [base, quote] = pair.split(':');
          const row = await deps.prisma.exchangeRate.findFirst({ where: { base, quote, rateDate: { lte: today } }, orderBy: { rateDate: 'desc' } });
          return row ? { rate: row.rate, rateDate: row.rateDate.toISOString().slice(0, 10) } : null;
        }),
      );
    }),
  };
}
