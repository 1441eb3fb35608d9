/**
 * What a realistic baseline (B0r, B1r, B1gr: bench/baseline-server.ts with BENCH_REALISTIC=1) does for every request
 * besides making its body, because any real endpoint serving a browser must: look the presented key up by its SHA-256
 * in the database (B1r, B1gr; B0r has no database), compress the body as the client asks with the API's own encoder
 * choice and levels (src/http/conventions.ts), add the CORS header for an allowed origin, and write one JSON log line
 * to stdout (pino's default destination, as the API's logger writes it), read from a pipe by the bench.
 */
import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream } from 'pino';
import { COMPRESS_MIN_BYTES, compressAnswer, preferredEncoding } from '../src/http/conventions.js';
import { requestIdFor } from '../src/http/request-id.js';
import type { Query } from './baseline-sql.js';

const JSON_TYPE = 'application/json; charset=utf-8';
/** The key's row by the hash of the whole key (ApiKey.hash is unique: one index probe). */
const KEY_SQL = /* SQL */ `SELECT id::text, tier::text AS tier FROM "ApiKey" WHERE hash = $1 AND "revokedAt" IS NULL`;
const EXPOSED_HEADERS = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ETag';

export interface RealisticDuties {
  /** Checks the key (when there is a database); false when it answered 401 itself. */
  admit: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** Sends a body compressed as asked, with the CORS header, then logs the request. */
  send: (req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer) => void;
}

export function realisticDuties(options: { query: Query | null; corsOrigins: string[]; destination?: DestinationStream }): RealisticDuties {
  // pino's default destination (stdout, written synchronously), as the API's logger has it; tests give their own.
  const log = pino({ base: undefined, formatters: { level: (label) => ({ level: label }) } }, options.destination);
  const started = new WeakMap<IncomingMessage, { at: number; requestId: string }>();
  const allowed = (origin: string) => options.corsOrigins.length === 0 || options.corsOrigins.includes(origin);

  const send: RealisticDuties['send'] = (req, res, status, body) => {
    const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, vary: 'Accept-Encoding, Origin' };
    const origin = req.headers.origin;
    if (origin && allowed(origin)) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const encoding = bytes.byteLength >= COMPRESS_MIN_BYTES ? preferredEncoding(req.headers['accept-encoding'] ?? null) : null;
    const state = started.get(req);
    const write = (payload: Buffer) => {
      if (encoding) headers['content-encoding'] = encoding;
      headers['content-length'] = payload.byteLength;
      res.writeHead(status, headers).end(payload);
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      log.info(
        {
          requestId: state?.requestId,
          method: req.method,
          path: query < 0 ? url : url.slice(0, query),
          status,
          ms: state ? Math.round(performance.now() - state.at) : null,
        },
        'request',
      );
    };
    if (!encoding) return write(bytes);
    compressAnswer(bytes, encoding).then(write, (e: Error) => {
      res.writeHead(500, { 'content-type': JSON_TYPE }).end(JSON.stringify({ error: e.message }));
    });
  };

  const admit: RealisticDuties['admit'] = async (req, res) => {
    const header = req.headers['x-request-id'];
    started.set(req, { at: performance.now(), requestId: requestIdFor(typeof header === 'string' ? header : null) });
    if (!options.query) return true;
    const authorization = req.headers.authorization;
    const key = authorization?.startsWith('Bearer ') ? authorization.slice(7) : null;
    const rows = key ? await options.query(KEY_SQL, [hash('sha256', key, 'hex')]) : [];
    if (rows.length) return true;
    send(req, res, 401, '{"error":"invalid or missing API key"}');
    return false;
  };

  return { admit, send };
}
