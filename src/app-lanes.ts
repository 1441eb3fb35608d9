import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { sendNodeResponse } from '@whatwg-node/server';
import { answerBytes, matchRoute, runRoute, type CompiledRoute, type MatchedRoute, type RouteAnswer } from './rest/adapter.js';
import { restGetLaneOf, type LaneTarget } from './rest/get-lane.js';
import { graphqlPostLaneOf } from './graphql/post-lane.js';
import { plainPostOf } from './graphql/plain-post.js';
import type { GraphQLServer } from './graphql/yoga.js';
import type { ApiError } from './errors/api-error.js';
import { ROUTE_DOCUMENTS, type ClassifyFacts } from './errors/classify.js';
import type { Logger } from './logging/logger.js';
import type { Admission, HeaderReader, RequestContext, RequestScope, Surface } from './http/context.js';
import { fetchRequestOf, nodeHeaderReader, readDeclaredBody } from './http/node-request.js';
import { requestIdFor } from './http/request-id.js';
import { clientIp } from './http/client-ip.js';
import { errorResponse } from './http/responses.js';
import { graphqlErrorResponse, withGraphQLErrorBody } from './graphql/errors.js';
import { wouldCompress } from './http/conventions.js';
import { isIntrospectionOnly } from './http/deprecation.js';
import { utf8Bytes } from './http/utf8.js';
import { Response } from './http/fetch-api.js';

/**
 * The lanes: requests served straight from node:http, without the Fetch layer (a Fetch Request built from node's
 * request, a Fetch Response written back to it), which cost a small read a large share of its CPU (docs/performance.md,
 * Levers). A REST GET (src/rest/get-lane.ts) and a GraphQL POST (src/graphql/post-lane.ts) say which requests;
 * everything else, and every answer a lane does not write itself (an error, a body to compress, Yoga's own), goes
 * through app.ts's `finish` as on the Fetch path, with the same key check, limits and execution before it.
 */

const API_PREFIX = '/api/v1';
const JSON_TYPE = 'application/json; charset=utf-8';
/** A POST to /graphql as the lane takes it has no query string (src/graphql/post-lane.ts). */
const NO_QUERY: Pick<URLSearchParams, 'get'> = new URLSearchParams();

/** What the lanes use of the app (src/app.ts): its key check and limits, its execution, and its finishing. */
export interface LaneHost {
  log: Logger;
  baseUrl: string;
  trustProxy: boolean;
  maxBodyBytes: number;
  routes: CompiledRoute[];
  schema: GraphQLSchema;
  yoga: GraphQLServer;
  contextFor(headers: HeaderReader, scope: RequestScope, surface: Surface, admission: Admission, ip: string): Promise<RequestContext>;
  keylessContext(scope: RequestScope, admission: Admission, ip: string): Promise<RequestContext>;
  routeResponse(answer: RouteAnswer, body: Buffer<ArrayBuffer>, compiled: CompiledRoute): Response;
  finish(
    original: Request,
    request: Request,
    served: Response,
    scope: RequestScope,
    admission: Admission,
    path: string,
    started: number,
  ): Promise<Response>;
  recordRequest(method: string, path: string, status: number, scope: RequestScope, started: number): void;
  limiterHeaders(admission: Admission): Array<[string, string]>;
  /** The §9 deprecation headers. */
  deprecation: Array<[string, string]>;
  translate(e: unknown, log: Logger, requestId: string, signal?: { aborted: boolean }, facts?: ClassifyFacts): ApiError;
}

/** The lane a request takes, as a function serving it there; null for the Fetch adapter. */
export function createLanes(host: LaneHost): (req: IncomingMessage, res: ServerResponse) => Promise<void> | null {
  /** What both lanes start from: node's request read as `handle` reads a Fetch Request. */
  function laneStart(req: IncomingMessage) {
    const started = performance.now();
    const headers = nodeHeaderReader(req.headers);
    const requestId = requestIdFor(headers.get('x-request-id'));
    const scope: RequestScope = { requestId, log: host.log.child({ requestId }) };
    const ip = clientIp({ headers }, { req }, host.trustProxy);
    return { started, headers, scope, admission: {} as Admission, ip };
  }

  /** A lane's answer that it does not write itself (an error, a body to compress, Yoga's own), finished as any other. */
  async function finishLane(
    req: IncomingMessage,
    res: ServerResponse,
    served: Response,
    scope: RequestScope,
    admission: Admission,
    path: string,
    started: number,
  ) {
    const request = fetchRequestOf(req);
    await sendNodeResponse(await host.finish(request, request, served, scope, admission, path, started), res, req, true);
  }

  /**
   * A REST GET served from node:http without the Fetch layer (src/rest/get-lane.ts says which requests and why): the
   * same key check, limits, route and headers as serve and finish give it. A plain answer is written here with one
   * writeHead; an error, or a body to compress, is finished by `finish` like any other.
   */
  async function serveRestGet(req: IncomingMessage, res: ServerResponse, target: LaneTarget, matched: MatchedRoute): Promise<void> {
    const { started, headers, scope, admission, ip } = laneStart(req);
    scope.route = `${API_PREFIX}${matched.compiled.route.path}`;
    let served: Response;
    try {
      const context = await host.contextFor(headers, scope, 'rest', admission, ip);
      const search = new URLSearchParams(target.query);
      const answer = await runRoute(matched.compiled, { search, pathValues: matched.pathValues }, host.schema, context);
      // Bytes, not a string: a body with one non-ASCII character (an en dash in a price range) written as a string
      // was measured (Buffer.byteLength), joined to the headers as a two-byte string and encoded again, besides the
      // encoding its ETag was hashed from.
      const bytes = answerBytes(answer, scope.requestId);
      if (answer.status === 200 && answer.etag && !wouldCompress(req.headers['accept-encoding'], bytes.byteLength)) {
        const deprecated = Boolean(matched.compiled.route.deprecatedFields);
        res.writeHead(200, plainAnswerHeaders(JSON_TYPE, bytes.byteLength, { etag: answer.etag, deprecated }, scope, admission)).end(bytes);
        host.recordRequest('GET', target.path, 200, scope, started);
        return;
      }
      served = host.routeResponse(answer, bytes, matched.compiled);
    } catch (e) {
      const error = host.translate(e, scope.log, scope.requestId, { aborted: res.destroyed }, ROUTE_DOCUMENTS);
      served = errorResponse(error, scope.requestId, host.baseUrl);
    }
    await finishLane(req, res, served, scope, admission, target.path, started);
  }

  /**
   * A GraphQL POST served from node:http without the Fetch layer (src/graphql/post-lane.ts says which requests and
   * why): the body read (its length declared within the limit), keyless introspection or the key check and limits,
   * Yoga's execution as serve runs it. An answer without errors and nothing to compress is written here; the rest is
   * finished by `finish` like any other.
   */
  async function serveGraphQLPost(req: IncomingMessage, res: ServerResponse, length: number): Promise<void> {
    const { started, headers, scope, admission, ip } = laneStart(req);
    let served: Response;
    try {
      const body = await readDeclaredBody(req, length);
      const context = isIntrospectionOnly(NO_QUERY, body)
        ? await host.keylessContext(scope, admission, ip)
        : await host.contextFor(headers, scope, 'graphql', admission, ip);
      const view = { method: 'POST', url: `http://${req.headers.host ?? 'localhost'}/graphql`, headers };
      const plain = plainPostOf(view, body);
      const fetchRequest = () => fetchRequestOf(req);
      const answer = plain
        ? await host.yoga.plainPost(plain, view, context, body, fetchRequest)
        : await host.yoga.fetch(fetchRequest(), context, body);
      if (typeof answer === 'string') {
        const bytes = utf8Bytes(answer);
        const type = `${plain!.mediaType}; charset=utf-8`;
        if (!wouldCompress(req.headers['accept-encoding'], bytes.byteLength)) {
          res.writeHead(200, plainAnswerHeaders(type, bytes.byteLength, { deprecated: false }, scope, admission)).end(bytes);
          host.recordRequest('POST', '/graphql', 200, scope, started);
          return;
        }
        served = new Response(bytes, { headers: { 'content-type': type } });
      } else served = await withGraphQLErrorBody(answer, scope.requestId, host.baseUrl, headers.get('accept'));
    } catch (e) {
      const error = host.translate(e, scope.log, scope.requestId, { aborted: res.destroyed });
      served = graphqlErrorResponse(error, scope.requestId, host.baseUrl, headers.get('accept'));
    }
    await finishLane(req, res, served, scope, admission, '/graphql', started);
  }

  /**
   * The headers `finish` gives a 200 answer without compression, CORS or a 304, as node's writeHead takes them: a REST
   * route's (its ETag, cacheable) or a GraphQL POST's (no-store).
   */
  function plainAnswerHeaders(
    type: string,
    length: number,
    answer: { etag?: string; deprecated: boolean },
    scope: RequestScope,
    admission: Admission,
  ): string[] {
    const headers = ['content-type', type];
    if (answer.etag) headers.push('etag', answer.etag);
    if (answer.deprecated || scope.usedDeprecatedFields) for (const [name, value] of host.deprecation) headers.push(name, value);
    headers.push('content-length', String(length), 'cache-control', answer.etag ? 'private, max-age=300' : 'no-store');
    if (scope.cache) {
      headers.push('x-cache', scope.cache.outcome);
      if (scope.cache.ageSeconds !== undefined) headers.push('age', String(scope.cache.ageSeconds));
    }
    // withCompression's Vary, then cors.apply's (a request without Origin).
    headers.push('vary', 'Accept-Encoding, Origin');
    for (const [name, value] of host.limiterHeaders(admission)) headers.push(name.toLowerCase(), value);
    headers.push('x-request-id', scope.requestId);
    return headers;
  }

  return function lane(req, res) {
    const target = restGetLaneOf(req.method, req.url, req.headers);
    if (target) {
      const matched = matchRoute(host.routes, 'GET', target.path.slice(API_PREFIX.length));
      return matched ? serveRestGet(req, res, target, matched) : null;
    }
    const length = graphqlPostLaneOf(req.method, req.url, req.headers, host.maxBodyBytes);
    return length === null ? null : serveGraphQLPost(req, res, length);
  };
}
