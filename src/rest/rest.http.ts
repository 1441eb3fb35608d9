import type { GraphQLSchema } from 'graphql';
import { ApiError } from '../errors/api-error.js';
import { ROUTE_DOCUMENTS } from '../errors/classify.js';
import { translate } from '../errors/translate.js';
import { assertJsonBody } from '../http/body.js';
import type { HeaderReader, RequestContext, RequestScope } from '../graphql/context.js';
import type { RequestContexts } from '../http/context.js';
import { Answer } from '../http/answer.js';
import type { HttpSurface, Visit } from '../http/ingress.js';
import { errorAnswer } from '../http/responses.js';
import { utf8Bytes } from '../http/utf8.js';
import { presentedKey } from '../auth/authenticate.js';
import { answerBytes, compileRoute, matchRoute, orderRoutes, runRoute, type MatchedRoute, type RouteExecutor } from './adapter.js';
import type { ToolContract } from '../mcp/mcp.schemas.js';
import { buildOpenApiDocument, operationContract } from './openapi.js';
import { restRoutes } from './routes.js';

export const API_PREFIX = '/api/v1';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The REST surface (/api/v1: openapi.json, the routes, 404 for the rest), and what MCP shares of it. */
export interface RestSurface extends HttpSurface {
  /** A route's contract written out whole, by operationId: what an assistant tool's schemas are made from. */
  operationContract(operationId: string): ToolContract;
  /** An assistant tool's operation run through its route's document, its answer's body (src/mcp/mcp.surface.ts). */
  runOperation(operationId: string, args: Record<string, unknown>, context: RequestContext): Promise<Record<string, unknown>>;
}

export function createRestSurface(options: {
  schema: GraphQLSchema;
  /** The GraphQL plugin chain's execution, which every route's document runs through (src/graphql/yoga.ts). */
  execute: RouteExecutor;
  baseUrl: string;
  maxBodyBytes: number;
  contexts: RequestContexts;
}): RestSurface {
  const { schema, execute, baseUrl, contexts } = options;
  const routes = orderRoutes(restRoutes.map((route) => compileRoute(route, schema)));
  const routesById = new Map(routes.map((r) => [r.route.operationId, r]));
  const routeOf = (operationId: string) => {
    const compiled = routesById.get(operationId);
    if (!compiled) throw new Error(`assistant tool: no route ${operationId}`);
    return compiled;
  };
  let openApi: Buffer<ArrayBuffer> | undefined;

  const contextFor = (headers: HeaderReader, { scope, admission, ip }: Visit) =>
    contexts.contextFor({ caller: 'key', surface: 'rest', scope, admission, ip, headers });
  const failed = (e: unknown, scope: RequestScope, signal?: { aborted: boolean }) =>
    errorAnswer(translate(e, scope.log, scope.requestId, signal, ROUTE_DOCUMENTS), scope.requestId, baseUrl);

  async function serveMatched(matched: MatchedRoute, visit: Visit): Promise<Answer> {
    const { headers, scope } = visit;
    const { compiled, pathValues } = matched;
    scope.route = `${API_PREFIX}${compiled.route.path}`;
    const context = await contextFor(headers, visit);
    // POST bodies are read only for routes that take one, after the key is checked; 413 comes before any parsing.
    if (compiled.route.body) assertJsonBody(headers);
    const body = compiled.route.body ? await visit.body(options.maxBodyBytes) : undefined;
    const answer = await runRoute(compiled, { search: visit.search, pathValues, body }, execute, schema, context);
    if (compiled.deprecated) scope.usedDeprecatedFields = true;
    // Bytes, not a string: a body with one non-ASCII character (an en dash in a price range) written as a string was
    // measured (Buffer.byteLength), joined to the headers as a two-byte string and encoded again.
    const head: Array<[string, string]> = [['content-type', JSON_TYPE]];
    if (answer.etag) head.push(['etag', answer.etag]);
    return new Answer(answer.status, head, answerBytes(answer, scope.requestId));
  }

  return {
    accepts: () => true,
    async serve(visit) {
      const { method, path, headers, scope, admission, ip } = visit;
      if (path === `${API_PREFIX}/openapi.json` && method === 'GET') return serveOpenApi(visit);
      try {
        const matched = path.startsWith(`${API_PREFIX}/`) ? matchRoute(routes, method, path.slice(API_PREFIX.length)) : null;
        if (matched) return await serveMatched(matched, visit);
        // With a key, the 404 counts on the key (and carries its rate limit headers); without one, on the client IP.
        if (presentedKey(headers)) await contextFor(headers, visit);
        else await contexts.admitKeyless(admission, ip);
        throw new ApiError('route_not_found', { message: `No route matches ${method} ${path}.` });
      } catch (e) {
        return failed(e, scope, visit.signal);
      }
    },
    operationContract: (operationId) => operationContract(routeOf(operationId), schema, baseUrl),
    async runOperation(operationId, args, context) {
      return (await runRoute(routeOf(operationId), { arguments: args }, execute, schema, context)).body;
    },
  };

  async function serveOpenApi({ scope, admission, ip }: Visit): Promise<Answer> {
    scope.route = `${API_PREFIX}/openapi.json`;
    try {
      await contexts.admitKeyless(admission, ip);
    } catch (e) {
      return failed(e, scope);
    }
    openApi ??= utf8Bytes(JSON.stringify(buildOpenApiDocument(routes, schema, baseUrl)));
    return new Answer(200, [['content-type', JSON_TYPE]], openApi);
  }
}
