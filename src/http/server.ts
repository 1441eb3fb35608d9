import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { errorBody } from '../errors/translate.js';
import type { Logger } from '../logging/logger.js';
import { requestIdFor } from './request-id.js';
import { parsesAsUrl } from './url-parse.js';

/** Explicit server timeouts (Node's defaults are 60 s for headers and 300 s per request). */
export const SERVER_TIMEOUTS = {
  /** A client must send its whole header block within this, milliseconds (slowloris). */
  headersTimeoutMs: 10_000,
  /** A whole request (headers and body) must arrive within this, milliseconds. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this, milliseconds (below common proxies' 60 s). */
  keepAliveTimeoutMs: 5_000,
} as const;

/** How long a drain waits for in-flight requests before closing their connections anyway, milliseconds. */
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * How long a drain keeps accepting before it stops, milliseconds. A request a client sent just before the signal may
 * not have been read yet (its connection still in the listen queue, or its bytes in a socket buffer); closing the
 * listener or such a connection at once resets it. During this time it is read and answered `503
 * service_unavailable` with `Connection: close` instead; after it, new connections are refused.
 */
export const DRAIN_ACCEPT_GRACE_MS = 500;

/**
 * After the grace, the listener stays open while connections still arrive: it closes once none has come for
 * `DRAIN_ACCEPT_QUIET_MS`, and at the latest `DRAIN_ACCEPT_MAX_MS` after the drain began. On a loaded machine the
 * kernel's accept queue can still hold requests sent before the signal when the grace ends; closing then reset them.
 */
export const DRAIN_ACCEPT_QUIET_MS = 250;
export const DRAIN_ACCEPT_MAX_MS = 2_000;

export interface HttpServer {
  server: Server;
  /**
   * Graceful drain: let every in-flight request finish (their responses say `Connection: close`); answer what arrives
   * during `DRAIN_ACCEPT_GRACE_MS`, and for as long as connections keep arriving (up to `DRAIN_ACCEPT_MAX_MS`), with
   * 503; then stop accepting and close idle keep-alive connections; resolve when the last connection has closed.
   * After `DRAIN_TIMEOUT_MS` the rest are cut.
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
 * A request target and Host Node accepted but the Fetch layer cannot turn into a URL: `OPTIONS *`, absolute-form
 * targets (`GET http://other/ HTTP/1.1`), a Host with a space or a port past 65535. Answered here with the §7
 * envelope instead of letting the adapter throw.
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

function envelopeBody(code: ErrorCode, message: string, requestId: string, baseUrl: string): string {
  return JSON.stringify({ error: errorBody(new ApiError(code, { message }), requestId, baseUrl) });
}

/** Node's parser refusals, by its error codes, as the envelope's code and status. */
function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'malformed_request';
}

/**
 * The node:http server of the service: explicit timeouts, a §7 envelope (with a request id) for every request Node
 * or the Fetch layer would otherwise answer with an empty body or a stack trace, and a graceful drain.
 * What stays Node's: a connection that sends bytes that are not HTTP at all is closed after the envelope is written
 * when the socket is still writable, and silently when it is not (nothing can be answered on a destroyed socket).
 */
export function createHttpServer(listener: RequestListener, options: { log: Logger; baseUrl: string }): HttpServer {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer(
    {
      headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs,
      requestTimeout: SERVER_TIMEOUTS.requestTimeoutMs,
      keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeoutMs,
      // Node checks the header and request deadlines every 30 s by default, so they fired up to 30 s late.
      connectionsCheckingInterval: 1_000,
      requireHostHeader: false,
    },
    (req, res) => {
      if (draining) {
        // Read after the drain began, so not in flight then: refused, with nothing done (a retry elsewhere is safe).
        const requestId = requestIdFor(null);
        const body = envelopeBody('service_unavailable', 'The server is shutting down; retry the request.', requestId, options.baseUrl);
        res
          .writeHead(503, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            'x-request-id': requestId,
            'cache-control': 'no-store',
            'retry-after': '1',
            connection: 'close',
          })
          .end(body);
        return;
      }
      inFlight.add(res);
      res.on('close', () => inFlight.delete(res));
      if (req.method === 'OPTIONS' && req.url === '*') {
        // A server-wide OPTIONS: what the server allows, nothing else.
        res.writeHead(204, { allow: 'GET, HEAD, POST, OPTIONS', 'x-request-id': requestIdFor(null) }).end();
        return;
      }
      const problem = malformedTarget(req);
      if (problem) {
        const requestId = requestIdFor(null);
        options.log.info({ requestId, method: req.method, problem }, 'malformed request refused');
        const body = envelopeBody('malformed_request', `Malformed request: ${problem}.`, requestId, options.baseUrl);
        res
          .writeHead(400, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
            'x-request-id': requestId,
            'cache-control': 'no-store',
          })
          .end(body);
        return;
      }
      listener(req, res);
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or aborted connection has no one left to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const code = clientErrorCode(error);
    const requestId = requestIdFor(null);
    const body = envelopeBody(code, new ApiError(code).message, requestId, options.baseUrl);
    const status = new ApiError(code).status;
    options.log.info({ requestId, code: error.code }, 'request refused by the HTTP parser');
    socket.end(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  const drain = () =>
    new Promise<void>((resolve) => {
      draining = true;
      options.log.info({ inFlight: inFlight.size }, 'drain: finishing the requests in flight');
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      const force = setTimeout(() => {
        options.log.warn({ inFlight: inFlight.size }, `drain: requests still running after ${DRAIN_TIMEOUT_MS} ms; closing their connections`);
        server.closeAllConnections();
      }, DRAIN_TIMEOUT_MS);
      force.unref();
      // close() stops accepting and, on Node ≥ 19, closes idle keep-alive connections; busy ones close after their
      // response (Connection: close), and the callback runs when the last one has. Closing at once reset requests sent
      // just before SIGTERM (test/platform/server-process.test.ts: 26 of 50 on a real process).
      const began = performance.now();
      let lastConnection = began;
      const arrived = () => (lastConnection = performance.now());
      server.on('connection', arrived);
      const closeWhenQuiet = () =>
        // Decided after one turn of the loop, whose poll phase accepts whatever the kernel queued while a busy loop
        // delayed this timer: a late timer must not read as a quiet listener.
        setImmediate(() => {
          const now = performance.now();
          if (now - lastConnection < DRAIN_ACCEPT_QUIET_MS && now - began < DRAIN_ACCEPT_MAX_MS) {
            setTimeout(closeWhenQuiet, DRAIN_ACCEPT_QUIET_MS);
            return;
          }
          server.off('connection', arrived);
          options.log.info({ inFlight: inFlight.size }, 'drain: no longer accepting connections');
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
        });
      setTimeout(closeWhenQuiet, DRAIN_ACCEPT_GRACE_MS);
    });

  return { server, drain };
}

function statusText(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status] ?? 'Bad Request';
}
