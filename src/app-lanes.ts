import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerBytes, matchRoute, type MatchedRoute } from './rest/adapter.js';
import { restGetLaneOf, type LaneTarget } from './rest/get-lane.js';
import { API_PREFIX, type RestSurface } from './rest/rest.http.js';
import { graphqlPostLaneOf } from './graphql/post-lane.js';
import { PlainAnswer, type GraphQLSurface } from './http/graphql-surface.js';
import { mcpPostLaneOf } from './mcp/mcp.lane.js';
import type { McpSurface } from './mcp/mcp.surface.js';
import type { Ingress } from './http/ingress.js';
import { fetchRequestOf, nodeHeaderReader, readDeclaredBody } from './http/node-request.js';
import { Response } from './http/fetch-api.js';

/**
 * The lanes: requests served straight from node:http, without the Fetch layer (a Fetch Request built from node's
 * request, a Fetch Response written back to it), which cost a small read a large share of its CPU (docs/performance.md,
 * Levers). A REST GET (src/rest/get-lane.ts), a GraphQL POST (src/graphql/post-lane.ts) and an MCP POST
 * (src/mcp/mcp.lane.ts) say which requests. A lane
 * runs its surface's own key check, limits and execution, and its answer passes the same answer steps as every other
 * (src/http/answer-steps.ts): a plain 200 whose body no step changes is written with one writeHead, the rest (an
 * error, a body to compress, Yoga's own answer) finished as on the Fetch path, with a Fetch Request made from node's.
 */

const JSON_TYPE = 'application/json; charset=utf-8';
/** A POST to /graphql as the lane takes it has no query string (src/graphql/post-lane.ts). */
const NO_QUERY: Pick<URLSearchParams, 'get'> = new URLSearchParams();

/** The lane a request takes, as a function serving it there; null for the Fetch path. */
export function createLanes(host: {
  ingress: Ingress;
  rest: RestSurface;
  graphql: GraphQLSurface;
  mcp: McpSurface;
  maxBodyBytes: number;
}): (req: IncomingMessage, res: ServerResponse) => Promise<void> | null {
  const { ingress, rest, graphql, mcp } = host;

  /** A REST GET (src/rest/get-lane.ts says which requests and why): the route as the REST surface runs it. */
  async function serveRestGet(req: IncomingMessage, res: ServerResponse, target: LaneTarget, matched: MatchedRoute): Promise<void> {
    const headers = nodeHeaderReader(req.headers);
    const exchange = ingress.begin('GET', headers, { req }, target.path);
    const { scope, admission, ip } = exchange;
    scope.route = `${API_PREFIX}${matched.compiled.route.path}`;
    let served: Response;
    try {
      const context = await rest.contextFor(headers, { scope, admission, ip });
      const answer = await rest.run(matched, { search: new URLSearchParams(target.query) }, context);
      // Bytes, not a string: a body with one non-ASCII character (an en dash in a price range) written as a string
      // was measured (Buffer.byteLength), joined to the headers as a two-byte string and encoded again, besides the
      // encoding its ETag was hashed from.
      const bytes = answerBytes(answer, scope.requestId);
      const first: Array<[string, string]> = [['content-type', JSON_TYPE]];
      if (answer.etag) first.push(['etag', answer.etag]);
      if (answer.status === 200 && ingress.writeOnNode(res, exchange, first, bytes)) return;
      served = rest.routeResponse(answer, bytes);
    } catch (e) {
      served = rest.failed(e, scope, { aborted: res.destroyed });
    }
    await ingress.finishOnNode(req, res, served, exchange);
  }

  /**
   * A GraphQL POST (src/graphql/post-lane.ts says which requests and why): the body read (its length declared within
   * the limit), then the GraphQL surface's context and Yoga's execution, a plain POST's through getResultForParams.
   */
  async function serveGraphQLPost(req: IncomingMessage, res: ServerResponse, length: number): Promise<void> {
    const headers = nodeHeaderReader(req.headers);
    const exchange = ingress.begin('POST', headers, { req }, '/graphql');
    const { scope, admission, ip } = exchange;
    let served: Response;
    try {
      const body = await readDeclaredBody(req, length);
      const context = await graphql.contextFor(NO_QUERY, body, headers, { scope, admission, ip });
      const view = { method: 'POST', url: `http://${req.headers.host ?? 'localhost'}/graphql`, headers };
      const answer = await graphql.execute(view, context, body, () => fetchRequestOf(req));
      if (answer instanceof PlainAnswer) {
        if (ingress.writeOnNode(res, exchange, [['content-type', answer.contentType]], answer.bytes)) return;
        served = new Response(answer.bytes, { headers: { 'content-type': answer.contentType } });
      } else served = await graphql.answered(answer, scope.requestId, headers.get('accept'));
    } catch (e) {
      served = graphql.failed(e, scope, headers.get('accept'), { aborted: res.destroyed });
    }
    await ingress.finishOnNode(req, res, served, exchange);
  }

  /** An MCP POST (src/mcp/mcp.lane.ts says which requests and why): the body read, then the MCP surface's own handler. */
  async function serveMcpPost(req: IncomingMessage, res: ServerResponse, length: number): Promise<void> {
    const headers = nodeHeaderReader(req.headers);
    const exchange = ingress.begin('POST', headers, { req }, '/mcp');
    const { scope, ip } = exchange;
    const url = () => `http://${req.headers.host ?? 'localhost'}/mcp`;
    const answer = await mcp.post({ headers, url, body: () => readDeclaredBody(req, length) }, { ip, requestId: scope.requestId, log: scope.log });
    if (answer.status === 200 && answer.body && ingress.writeOnNode(res, exchange, Object.entries(answer.headers), answer.body)) return;
    await ingress.finishOnNode(req, res, new Response(answer.body, { status: answer.status, headers: answer.headers }), exchange);
  }

  return function lane(req, res) {
    const target = restGetLaneOf(req.method, req.url, req.headers);
    if (target) {
      const matched = matchRoute(rest.routes, 'GET', target.path.slice(API_PREFIX.length));
      return matched ? serveRestGet(req, res, target, matched) : null;
    }
    const length = graphqlPostLaneOf(req.method, req.url, req.headers, host.maxBodyBytes);
    if (length !== null) return serveGraphQLPost(req, res, length);
    const mcpLength = mcpPostLaneOf(req.method, req.url, req.headers, host.maxBodyBytes);
    return mcpLength === null ? null : serveMcpPost(req, res, mcpLength);
  };
}
