import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger.js';
import { surfaceOf, type Metrics, type MetricsSurface } from '../observability/metrics.js';
import type { HeaderReader, RequestScope } from '../graphql/context.js';
import type { Admission } from './context.js';
import { Answer } from './answer.js';
import type { AnswerStep, Exchange } from './answer-steps.js';
import { readBody } from './body.js';
import { clientIp, type ServerContext } from './client-ip.js';
import type { ApiCors } from './cors.js';
import { Request } from './fetch-api.js';
import { fetchRequestOf, nodeHeaderReader, readNodeBody } from './node-request.js';
import { requestIdFor } from './request-id.js';

/**
 * The one ingress: every request, from node:http or in process, is read into a Visit, gets its id, client IP and
 * scope here, is served by the first surface that accepts it, and its answer passes the ordered answer steps
 * (src/http/answer-steps.ts), then its log line and metrics.
 *
 * A Visit reads what a surface asks of the request where it is: from node's request on a socket (headers, path and
 * query, the body into one buffer), and a Fetch Request is made of it only when a surface reads one (Yoga's whole
 * pipeline). Every answer takes one form (src/http/answer.ts), which the steps change and node's writeHead writes:
 * building a Fetch Request and writing a Fetch Response back had been a large share of a small answer's CPU
 * (docs/performance.md, Levers).
 */

/** One request as a surface serves it. */
export interface Visit {
  /** The method the surface serves: GET for a HEAD (the head step drops the body). */
  method: string;
  /** The URL's path, as URL parsing gives it (percent-escapes kept). */
  path: string;
  /** The query parameters. */
  readonly search: URLSearchParams;
  headers: HeaderReader;
  /** The request URL as text (Yoga reads it; an Origin is judged against it). */
  readonly href: string;
  readonly url: URL;
  /** The request as a Fetch Request, made when first read (without its body: read that with `body`). */
  readonly request: Request;
  /** The body, read once; 413 payload_too_large past `maxBytes`, before any of it is parsed. */
  body(maxBytes: number): Promise<Uint8Array<ArrayBuffer>>;
  /** Whether the client has gone (an unexpected error is then logged as its hang-up). */
  readonly signal: { readonly aborted: boolean };
  scope: RequestScope;
  admission: Admission;
  ip: string;
}

/** One surface (pages, site, health, MCP, GraphQL, REST): which requests it takes, and its one entry. */
export interface HttpSurface {
  accepts(path: string, method: string): boolean;
  serve(visit: Visit): Promise<Answer>;
}

export interface Ingress {
  /** node:http's request listener. */
  listener(req: IncomingMessage, res: ServerResponse): void;
  /** One request in process (tests, bench:scale), through the same surfaces and steps. */
  fetch(request: Request, server?: ServerContext): Promise<Response>;
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

/**
 * A request target URL parsing leaves as it is: a path in letters, digits and `-_~/` (nothing to re-encode or resolve:
 * no `%`, no `.` segment, no `\`), a query of printable ASCII but `#`. Anything else is read through URL.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9_~/-]*$/;
const PLAIN_QUERY = /^[\x21\x22\x24-\x7e]*$/;

/** A Visit without its scope: what the two edges read differently. */
type Reading = Omit<Visit, 'scope' | 'admission' | 'ip'>;

/** Whether the client of node's request has gone. */
class ResponseGone {
  constructor(private readonly res: ServerResponse) {}
  get aborted(): boolean {
    return this.res.destroyed;
  }
}

/**
 * node's request as a Visit reads it. A class, not an object literal with getters: V8 gives a literal's getters an
 * accessor pair per object, allocated in the old generation, which keeps each request's objects alive until the next
 * full collection (docs/upstream.md, the PrismaPromise entry).
 */
class NodeReading implements Reading {
  readonly method: string;
  readonly path: string;
  readonly headers: HeaderReader;
  readonly href: string;
  readonly signal: ResponseGone;
  /** Whether the target is one URL parsing leaves as it is (then it is parsed only if a surface asks for its URL). */
  private readonly plain: boolean;
  private readonly rawQuery: string;
  private parsed: URL | undefined;
  private query: URLSearchParams | undefined;
  private fetchRequest: Request | undefined;

  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
  ) {
    const target = req.url ?? '/';
    this.href = `http://${req.headers.host ?? 'localhost'}${target}`;
    const cut = target.indexOf('?');
    const rawPath = cut < 0 ? target : target.slice(0, cut);
    this.rawQuery = cut < 0 ? '' : target.slice(cut + 1);
    this.plain = PLAIN_PATH.test(rawPath) && PLAIN_QUERY.test(this.rawQuery);
    this.method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    // A target URL parsing would change is parsed once, here.
    this.parsed = this.plain ? undefined : new URL(this.href);
    this.path = this.parsed ? this.parsed.pathname : rawPath;
    this.headers = nodeHeaderReader(req.headers);
    this.signal = new ResponseGone(res);
  }

  get url(): URL {
    return (this.parsed ??= new URL(this.href));
  }

  get search(): URLSearchParams {
    return (this.query ??= this.plain ? new URLSearchParams(this.rawQuery) : this.url.searchParams);
  }

  get request(): Request {
    return (this.fetchRequest ??= fetchRequestOf(this.req, this.method));
  }

  body(maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
    return readNodeBody(this.req, maxBytes);
  }
}

/** A Fetch Request as a Visit reads it (in process). */
function fetchReading(original: Request): Reading {
  // HEAD is GET without the body, on every GET route.
  const request =
    original.method === 'HEAD' ? new Request(original.url, { method: 'GET', headers: original.headers, signal: original.signal }) : original;
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    search: url.searchParams,
    headers: request.headers,
    href: request.url,
    url,
    request,
    body: (maxBytes) => readBody(request, maxBytes),
    signal: request.signal,
  };
}

export function createIngress(options: {
  log: Logger;
  trustProxy: boolean;
  surfaces: HttpSurface[];
  steps: AnswerStep[];
  cors: ApiCors;
  metrics?: Metrics;
}): Ingress {
  const { steps, surfaces, log } = options;

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

  /** Serves a request read at either edge: its surface's answer, through every answer step, then its log line. */
  async function serve(method: string, reading: Reading, server: ServerContext | undefined): Promise<Answer> {
    const started = performance.now();
    const { headers, path } = reading;
    const requestId = requestIdFor(headers.get('x-request-id'));
    const scope: RequestScope = { requestId, log: log.child({ requestId }) };
    const exchange: Exchange = { method, headers, path, scope, admission: {}, started };
    const ip = clientIp({ headers }, server, options.trustProxy);
    const surface = surfaces.find((s) => s.accepts(path, reading.method)) ?? surfaces[surfaces.length - 1];
    const answer = await surface.serve(Object.assign(reading, { scope, admission: exchange.admission, ip }));
    for (const step of steps) {
      const waiting = step.apply(exchange, answer);
      if (waiting) await waiting;
    }
    record(exchange, answer.status);
    return answer;
  }

  async function serveNode(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A preflight (any OPTIONS request) is the browser asking, not the client: nothing is counted or logged.
    const answer =
      req.method === 'OPTIONS'
        ? options.cors.preflight({ headers: nodeHeaderReader(req.headers) })
        : await serve(req.method ?? 'GET', new NodeReading(req, res), { req });
    res.writeHead(answer.status, answer.headers.flat()).end(answer.body ?? undefined);
  }

  return {
    listener(req, res) {
      serveNode(req, res).catch((e: unknown) => {
        // The surfaces and the answer steps answer every error; if one ever threw, the client gets a reset, not a hang.
        log.error({ err: e }, 'request failed unanswered');
        res.destroy();
      });
    },
    async fetch(original, server) {
      const answer = original.method === 'OPTIONS' ? options.cors.preflight(original) : await serve(original.method, fetchReading(original), server);
      return answer.toResponse();
    },
  };
}
