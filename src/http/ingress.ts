import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import type { Logger } from '../logging/logger.js';
import { surfaceOf, type Metrics, type MetricsSurface } from '../observability/metrics.js';
import type { HeaderReader, RequestScope } from '../graphql/context.js';
import type { Admission } from './context.js';
import { HeadList, type AnswerStep, type Exchange } from './answer-steps.js';
import { clientIp, type ServerContext } from './client-ip.js';
import type { ApiCors } from './cors.js';
import { Request } from './fetch-api.js';
import { fetchRequestOf } from './node-request.js';
import { requestIdFor } from './request-id.js';

/**
 * The one ingress: every request gets its id, client IP and scope here, is served by the first surface that accepts
 * it, and its answer passes the ordered answer steps (src/http/answer-steps.ts), then its log line and metrics. The
 * lanes (src/app-lanes.ts) start and end their requests through the same functions.
 */

/** One request as a surface serves it: the Fetch Request (a GET for a HEAD), its URL, and what the ingress began. */
export interface Visit {
  request: Request;
  url: URL;
  scope: RequestScope;
  admission: Admission;
  ip: string;
}

/** One surface (pages, health, MCP, GraphQL, REST): which requests it takes, and its one entry. */
export interface HttpSurface {
  accepts(path: string, request: Request): boolean;
  serve(visit: Visit): Promise<Response>;
}

export interface Ingress {
  /** The Fetch path: everything the lanes do not take. */
  handle(original: Request, server?: ServerContext): Promise<Response>;
  /** A request's start, from the headers it came with: its id, log, client IP and admission. */
  begin(method: string, headers: HeaderReader, server: ServerContext | undefined, path: string): Exchange & { ip: string };
  /** Writes a lane's plain 200 with one writeHead when every step leaves its body as it is; false when it must be finished. */
  writeOnNode(res: ServerResponse, exchange: Exchange, first: Array<[string, string]>, bytes: Uint8Array): boolean;
  /** A lane's answer it does not write itself, finished as any other with a Fetch Request made from node's. */
  finishOnNode(req: IncomingMessage, res: ServerResponse, served: Response, exchange: Exchange): Promise<void>;
}

/** The metrics' route label of a request no route or operation named (GraphiQL, unmatched paths, MCP, pages). */
const FIXED_ROUTES: Record<MetricsSurface, string> = {
  rest: 'unmatched',
  graphql: '/graphql',
  mcp: '/mcp',
  pages: '/developers',
  health: '/healthz',
  other: 'other',
};

export function createIngress(options: {
  log: Logger;
  trustProxy: boolean;
  surfaces: HttpSurface[];
  steps: AnswerStep[];
  cors: ApiCors;
  metrics?: Metrics;
}): Ingress {
  const { steps, surfaces } = options;

  /** The request's log line and metrics. */
  function record({ method, path, scope, started }: Exchange, status: number): void {
    const ms = performance.now() - started;
    scope.log.info({ method, path, status, ms: Math.round(ms) }, 'request');
    if (!options.metrics) return;
    const surface = surfaceOf(path);
    // Never the raw path: slugs and unknown paths would make a label value per request.
    const route = scope.route ?? FIXED_ROUTES[surface];
    options.metrics.observeRequest({ surface, route, method, status, seconds: ms / 1000 });
  }

  const begin: Ingress['begin'] = (method, headers, server, path) => {
    const started = performance.now();
    const requestId = requestIdFor(headers.get('x-request-id'));
    const scope: RequestScope = { requestId, log: options.log.child({ requestId }) };
    return { method, headers, path, scope, admission: {}, started, ip: clientIp({ headers }, server, options.trustProxy) };
  };

  async function finish(exchange: Exchange, request: Request, served: Response): Promise<Response> {
    let response = served;
    for (const step of steps) {
      if (step.answer) response = await step.answer(exchange, request, response);
      else step.head(exchange, response, 0);
    }
    record(exchange, response.status);
    return response;
  }

  return {
    begin,
    async handle(original, server) {
      // A preflight (any OPTIONS request) is the browser asking, not the client: nothing is counted or logged.
      if (original.method === 'OPTIONS') return options.cors.preflight(original);
      // HEAD is GET without the body, on every GET route.
      const head = original.method === 'HEAD';
      const request = head ? new Request(original.url, { method: 'GET', headers: original.headers, signal: original.signal }) : original;
      // Parsed once: the surface reads its path and query, the steps the path.
      const url = new URL(request.url);
      const exchange = begin(original.method, original.headers, server, url.pathname);
      const { scope, admission, ip } = exchange;
      const surface = surfaces.find((s) => s.accepts(url.pathname, request)) ?? surfaces[surfaces.length - 1];
      return finish(exchange, request, await surface.serve({ request, url, scope, admission, ip }));
    },
    writeOnNode(res, exchange, first, bytes) {
      const answer = new HeadList(200, [...first, ['content-length', String(bytes.byteLength)]]);
      for (const step of steps) if (step.head(exchange, answer, bytes.byteLength) === false) return false;
      res.writeHead(200, answer.flat()).end(bytes);
      record(exchange, 200);
      return true;
    },
    async finishOnNode(req, res, served, exchange) {
      const request = fetchRequestOf(req);
      await sendNodeResponse(await finish(exchange, request, served), res, req, true);
    },
  };
}
