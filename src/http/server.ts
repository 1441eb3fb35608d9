import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { classify } from '../errors/classify.js';
import type { Logger } from '../logging/logger.js';
import { createDrain } from './drain.js';
import { requestIdFor } from './request-id.js';
import { errorBody } from './responses.js';
import { parsesAsUrl } from '../catalogue/url-parse.js';

/** Explicit server timeouts (Node's defaults are 60 s for headers and 300 s per request). */
export const SERVER_TIMEOUTS = {
  /** A client must send its whole header block within this, milliseconds (slowloris). */
  headersTimeoutMs: 10_000,
  /** A whole request (headers and body) must arrive within this, milliseconds. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this, milliseconds (below common proxies' 60 s). */
  keepAliveTimeoutMs: 5_000,
} as const;

export interface HttpServer {
  server: Server;
  /**
   * Graceful drain (src/http/drain.ts): stop accepting, let every request in flight finish (their responses say
   * `Connection: close`), answer what arrives on an open connection meanwhile with 503, then close the idle
   * connections; resolves when the last connection has closed. After `DRAIN_TIMEOUT_MS` the rest are cut.
   */
  drain: () => Promise<void>;
}

const PLAIN_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

/**
 * Whether the Fetch layer can make a URL of a request target. A path of printable ASCII that is not scheme-relative
 * (`//` or `/\`) always parses, so nearly every request skips the parser; the rest run it.
 */
export function parsesAsPath(target: string): boolean {
  return PLAIN_PATH.test(target) || parsesAsUrl(target, 'http://localhost');
}

/**
 * A request target and Host Node accepted but URL parsing cannot read: `OPTIONS *`, absolute-form targets
 * (`GET http://other/ HTTP/1.1`), a Host with a space or a port past 65535. Answered here with the §7 envelope, so
 * that the ingress (src/http/ingress.ts) never meets one.
 */
function malformedTarget(req: IncomingMessage): string | null {
  const target = req.url ?? '';
  if (target === '*') return req.method === 'OPTIONS' ? null : 'the request target * is only valid with OPTIONS';
  if (!target.startsWith('/')) return 'the request target must be a path (origin-form), such as /api/v1/venues';
  const host = req.headers.host;
  // Node's own check would answer an empty-bodied 400; HTTP/1.0 has no Host to require.
  if (host === undefined && req.httpVersion !== '1.0') return 'an HTTP/1.1 request needs a Host header';
  if (host !== undefined) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host);
    if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return 'the Host header is not a valid host[:port]';
  }
  return parsesAsPath(target) ? null : 'the request target is not a valid path';
}

/** What the server allows, as `OPTIONS *` and the 405 to CONNECT say. */
const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';

/** A request refused here, before the app: its catalogue code, what to tell the client, and extra headers. */
interface Refusal {
  code: ErrorCode;
  message: string;
  /** Instead of the catalogue's, when that one is about another case of the code. */
  hint?: string;
  headers?: Record<string, string>;
}

/** The raw socket surface's one renderer: a refusal as the §7 envelope, with its status and headers. */
function envelope(refusal: Refusal, requestId: string, baseUrl: string) {
  const error = new ApiError(refusal.code, { message: refusal.message, hint: refusal.hint });
  const body = JSON.stringify({ error: errorBody(error, requestId, baseUrl) });
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...refusal.headers,
  };
  return { status: error.status, headers, body };
}

/** Answers a request Node has parsed with the envelope; returns its request id. */
function refuse(res: ServerResponse, refusal: Refusal, baseUrl: string): string {
  const requestId = requestIdFor(null);
  const { status, headers, body } = envelope(refusal, requestId, baseUrl);
  res.writeHead(status, headers).end(body);
  return requestId;
}

/** Writes the envelope on a socket Node no longer answers on (parser errors, CONNECT) and closes it. */
function refuseOnSocket(socket: Socket, refusal: Refusal, baseUrl: string): string {
  const requestId = requestIdFor(null);
  const { status, headers, body } = envelope(refusal, requestId, baseUrl);
  const lines = Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
  return requestId;
}

const unmetExpectation: Refusal = {
  code: 'malformed_request',
  message: 'Malformed request: the only expectation this server meets is Expect: 100-continue.',
  hint: 'Send no Expect header, or Expect: 100-continue before a request body.',
};

const noTunnel: Refusal = {
  code: 'method_not_allowed',
  message: 'CONNECT is not supported: this server is an API, not a proxy.',
  hint: 'Send requests to this server directly, with GET, HEAD, POST or OPTIONS.',
  headers: { allow: ALLOWED_METHODS },
};

/**
 * The node:http server of the service: explicit timeouts, a §7 envelope (with a request id) for every request Node
 * or the Fetch layer would otherwise answer with an empty body, a stack trace or a closed socket, and a graceful drain.
 * What stays Node's: a connection that sends bytes that are not HTTP at all is closed after the envelope is written
 * when the socket is still writable, and silently when it is not (nothing can be answered on a destroyed socket).
 */
export function createHttpServer(listener: RequestListener, options: { log: Logger; baseUrl: string }): HttpServer {
  const { log, baseUrl } = options;
  const server = createServer({
    headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
    requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
    keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
    // Node checks the header and request deadlines every 30 s by default, so they fired up to 30 s late.
    connectionsCheckingInterval: 1_000,
    requireHostHeader: false,
  });
  const { draining, track, drain } = createDrain(server, log);
  // Read after the drain began, so not in flight then: refused with nothing done (a retry elsewhere is safe).
  const shuttingDown: Refusal = {
    code: 'service_unavailable',
    message: 'The server is shutting down; retry the request.',
    headers: { 'retry-after': '1', connection: 'close' },
  };
  const refuseWhileDraining = (res: ServerResponse) => refuse(res, shuttingDown, baseUrl);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    track(res);
    if (draining()) return void refuseWhileDraining(res);
    if (req.method === 'OPTIONS' && req.url === '*') {
      // A server-wide OPTIONS: what the server allows, nothing else.
      res.writeHead(204, { allow: ALLOWED_METHODS, 'x-request-id': requestIdFor(null) }).end();
      return;
    }
    const problem = malformedTarget(req);
    if (problem) {
      const requestId = refuse(res, { code: 'malformed_request', message: `Malformed request: ${problem}.` }, baseUrl);
      log.info({ requestId, method: req.method, problem }, 'malformed request refused');
      return;
    }
    listener(req, res);
  });

  // An Expect other than 100-continue (which Node answers itself): Node's default is a bare 417 with no request id.
  // RFC 9110 §10.1.1 allows refusing it; the catalogue has no 417 code, so it is a malformed request.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    track(res);
    if (draining()) return void refuseWhileDraining(res);
    const requestId = refuse(res, unmetExpectation, baseUrl);
    log.info({ requestId, method: req.method, expect: req.headers.expect?.slice(0, 100) }, 'unmet expectation refused');
  });

  // CONNECT asks for a tunnel, which an API does not give: without this Node closes the socket with no answer.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // Node has handed the socket over and no longer watches its errors or its lifetime.
    socket.on('error', () => socket.destroy());
    socket.setTimeout(SERVER_TIMEOUTS.keepAliveTimeoutMs, () => socket.destroy());
    // Bytes sent after the request are read and dropped, so that closing does not reset the answer away.
    socket.resume();
    const requestId = refuseOnSocket(socket, noTunnel, baseUrl);
    log.info({ requestId, method: 'CONNECT' }, 'CONNECT refused');
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or aborted connection has no one left to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Node's parser refusals, classified by its error codes.
    const { error: refusal } = classify(error, { httpParser: true });
    const requestId = refuseOnSocket(socket, { code: refusal.code, message: refusal.message }, baseUrl);
    log.info({ requestId, code: error.code }, 'request refused by the HTTP parser');
  });

  return { server, drain };
}
