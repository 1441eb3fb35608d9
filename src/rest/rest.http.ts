import type { GraphQLSchema } from 'graphql';
import { ApiError } from '../errors/api-error.js';
import { ROUTE_DOCUMENTS } from '../errors/classify.js';
import { translate } from '../errors/translate.js';
import { assertJsonBody, readBody } from '../http/body.js';
import type { HeaderReader, RequestContext, RequestScope } from '../graphql/context.js';
import type { Admission, RequestContexts } from '../http/context.js';
import { Response } from '../http/fetch-api.js';
import type { HttpSurface } from '../http/ingress.js';
import { errorResponse } from '../http/responses.js';
import { utf8Bytes } from '../http/utf8.js';
import { presentedKey } from '../auth/authenticate.js';
import { answerBytes, compileRoute, matchRoute, orderRoutes, runRoute, type CompiledRoute, type MatchedRoute, type RouteAnswer } from './adapter.js';
import { buildOpenApiDocument } from './openapi.js';
import { restRoutes } from './routes.js';

export const API_PREFIX = '/api/v1';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The REST surface (/api/v1: openapi.json, the routes, 404 for the rest), and what the GET lane and MCP share of it. */
export interface RestSurface extends HttpSurface {
  routes: CompiledRoute[];
  openApiDocument(): ReturnType<typeof buildOpenApiDocument>;
  /** A matched route's context: the key checked and counted (§5.4, §8). */
  contextFor(headers: HeaderReader, entry: Entry): Promise<RequestContext>;
  /** Runs a matched route; a route that selects deprecated fields says so on its scope (§9 headers, answer steps). */
  run(matched: MatchedRoute, input: { search: URLSearchParams; body?: Uint8Array }, context: RequestContext): Promise<RouteAnswer>;
  /** A route's answer as it is sent before the answer steps: its media type and rendered ETag. */
  routeResponse(answer: RouteAnswer, body: Buffer<ArrayBuffer>): Response;
  /** What a request that threw answers: the §7 envelope. */
  failed(e: unknown, scope: RequestScope, signal?: { aborted: boolean }): Response;
  /** An assistant tool's operation run through its route's document, its answer's body (src/mcp/mcp.surface.ts). */
  runOperation(operationId: string, args: Record<string, unknown>, context: RequestContext): Promise<Record<string, unknown>>;
}

type Entry = { scope: RequestScope; admission: Admission; ip: string };

export function createRestSurface(options: { schema: GraphQLSchema; baseUrl: string; maxBodyBytes: number; contexts: RequestContexts }): RestSurface {
  const { schema, baseUrl, contexts } = options;
  const routes = orderRoutes(restRoutes.map((route) => compileRoute(route, schema)));
  const routesById = new Map(routes.map((r) => [r.route.operationId, r]));
  let openApiDoc: ReturnType<typeof buildOpenApiDocument> | undefined;
  let openApi: Buffer<ArrayBuffer> | undefined;

  async function serveMatched(matched: MatchedRoute, { request, url, scope, admission, ip }: Parameters<HttpSurface['serve']>[0]) {
    scope.route = `${API_PREFIX}${matched.compiled.route.path}`;
    const context = await surface.contextFor(request.headers, { scope, admission, ip });
    const { route } = matched.compiled;
    // POST bodies are read only for routes that take one, after the key is checked; 413 comes before any parsing.
    if (route.body) assertJsonBody(request.headers);
    const body = route.body ? await readBody(request, options.maxBodyBytes) : undefined;
    const answer = await surface.run(matched, { search: url.searchParams, body }, context);
    return surface.routeResponse(answer, answerBytes(answer, scope.requestId));
  }

  const surface: RestSurface = {
    routes,
    accepts: () => true,
    async serve(visit) {
      const { request, url, scope, admission, ip } = visit;
      const path = url.pathname;
      if (path === `${API_PREFIX}/openapi.json` && request.method === 'GET') return serveOpenApi(visit);
      try {
        const matched = path.startsWith(`${API_PREFIX}/`) ? matchRoute(routes, request.method, path.slice(API_PREFIX.length)) : null;
        if (matched) return await serveMatched(matched, visit);
        // With a key, the 404 counts on the key (and carries its rate limit headers); without one, on the client IP.
        if (presentedKey(request.headers)) await surface.contextFor(request.headers, { scope, admission, ip });
        else await contexts.admitKeyless(admission, ip);
        throw new ApiError('route_not_found', { message: `No route matches ${request.method} ${path}.` });
      } catch (e) {
        return surface.failed(e, scope, request.signal);
      }
    },
    openApiDocument: () => (openApiDoc ??= buildOpenApiDocument(routes, schema, baseUrl)),
    contextFor: (headers, { scope, admission, ip }) => contexts.contextFor({ caller: 'key', surface: 'rest', scope, admission, ip, headers }),
    async run(matched, { search, body }, context) {
      const answer = await runRoute(matched.compiled, { search, pathValues: matched.pathValues, body }, schema, context);
      if (matched.compiled.route.deprecatedFields) context.scope!.usedDeprecatedFields = true;
      return answer;
    },
    routeResponse(answer, body) {
      const headers: Record<string, string> = { 'content-type': JSON_TYPE };
      if (answer.etag) headers.etag = answer.etag;
      return new Response(body, { status: answer.status, headers });
    },
    failed: (e, scope, signal) => errorResponse(translate(e, scope.log, scope.requestId, signal, ROUTE_DOCUMENTS), scope.requestId, baseUrl),
    async runOperation(operationId, args, context) {
      const compiled = routesById.get(operationId);
      if (!compiled) throw new Error(`assistant tool: no route ${operationId}`);
      return (await runRoute(compiled, { arguments: args }, schema, context)).body;
    },
  };

  async function serveOpenApi({ scope, admission, ip }: Parameters<HttpSurface['serve']>[0]): Promise<Response> {
    scope.route = `${API_PREFIX}/openapi.json`;
    try {
      await contexts.admitKeyless(admission, ip);
    } catch (e) {
      return errorResponse(translate(e, scope.log, scope.requestId), scope.requestId, baseUrl);
    }
    openApi ??= utf8Bytes(JSON.stringify(surface.openApiDocument()));
    return new Response(openApi, { headers: { 'content-type': JSON_TYPE } });
  }
  return surface;
}
