import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { RESPONSE_CACHE_TEXT } from '../cache/response-cache.js';
import { SERVER_TIMEOUTS } from './server.js';
import { Headers, Response } from './fetch-api.js';
import { utf8Bytes } from './utf8.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Bodies smaller than this are sent as they are: compression would cost more than it saves. */
const COMPRESS_MIN_BYTES = 1024;

const IDLE_SECONDS = SERVER_TIMEOUTS.keepAliveTimeoutMs / 1000;
/**
 * A client that keeps idle connections longer than the server can send a request on one just as the server closes it,
 * and sees a reset it cannot tell from a failure: Node 20's http.Agent did exactly that in the bench's open loop
 * (docs/performance.md, "stop 44"), since it follows the Keep-Alive hint only when given a timeout of its own.
 */
const CONNECTION_REUSE_TEXT =
  `Connections are kept alive; one idle for ${IDLE_SECONDS} s is closed, as every response says (\`Keep-Alive: timeout=${IDLE_SECONDS}\`). ` +
  "A client that reuses connections should drop idle ones sooner (browsers and `fetch` follow the header; Node's `http.Agent` " +
  'only when given a `timeout`), or retry a request whose reused connection was reset (an inquiry with the same ' +
  '`X-Idempotency-Key`).';

/** The caching, compression and connection rules as clients read them, in Markdown (the OpenAPI info text and /developers). */
export const HTTP_CONVENTIONS_TEXT =
  'Successful reads carry `Cache-Control: private, max-age=300` (§8.10: cache search results for 5 minutes) and a weak `ETag` ' +
  '(computed without request_id). Send it back as `If-None-Match` to get `304 Not Modified` with no body; a 304 still counts as a ' +
  'request against your limits, since it was authenticated and rate limited. Errors and inquiries are `no-store`. Bodies of ' +
  `${COMPRESS_MIN_BYTES / 1024} KB or more come compressed (br or gzip) when the client sends \`Accept-Encoding\`. Every GET route ` +
  'answers HEAD; list parameters take `amenities=pool,hot-tub` or `amenities=pool&amenities=hot-tub`. ' +
  CONNECTION_REUSE_TEXT +
  ' ' +
  RESPONSE_CACHE_TEXT;
const COMPRESSIBLE = /^(application\/(json|graphql-response\+json|javascript)|text\/)/;

/**
 * §8.10 tells clients to cache search results for 5 minutes: successful catalogue reads (GET) answer with
 * `Cache-Control: private, max-age=300` and a weak ETag over the body without its request_id (the only part that
 * changes between identical answers); a matching If-None-Match is a 304 with the same headers and no body. Anything
 * else (inquiries, errors, a GraphQL answer with field errors — the caller says so with `cacheable`) is `no-store`. A 304 is still a counted request: it was authenticated and rate limited.
 */
export async function withCaching(request: Request, response: Response, requestId: string, cacheable: boolean): Promise<Response> {
  if (!cacheable || response.status !== 200) {
    response.headers.delete('etag');
    if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
    return response;
  }
  // A REST route names its ETag as it renders the body (and a cached answer keeps it), so its body is not read again.
  const rendered = response.headers.get('etag');
  const body = rendered ? null : await response.text();
  const etag = rendered ?? weakEtag(body!.replaceAll(`"request_id":"${requestId}"`, ''));
  const headers = rendered ? response.headers : new Headers(response.headers);
  headers.set('etag', etag);
  headers.set('cache-control', 'private, max-age=300');
  const wanted = request.headers.get('if-none-match');
  if (wanted && wanted.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    headers.delete('content-type');
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return rendered ? response : new Response(body, { status: response.status, headers });
}

/** The weak ETag of a body, given as it reads without its request_id. */
export function weakEtag(stableBody: string): string {
  // Of bytes encoded by utf8Bytes: hashing the string had Node encode it, at the cost utf8Bytes avoids.
  return weakEtagOfBytes(utf8Bytes(stableBody));
}

/** One-shot hash: no Hash object per response (the same SHA-256 of the same bytes, so ETags are unchanged). */
const weakEtagOfBytes = (stableBytes: Buffer): string => `W/"${hash('sha256', stableBytes, 'base64url').slice(0, 27)}"`;

/** A JSON object's text with `request_id` added as its last member (a REST body as it is sent). */
export function withRequestId(objectText: string, requestId: string): string {
  return `${objectText.slice(0, -1)}${objectText.length > 2 ? ',' : ''}"request_id":"${requestId}"}`;
}

/** The ETag withCaching would compute for `withRequestId(objectText, id)`, whatever the id, without building it. */
export function etagWithoutRequestId(objectText: string): string {
  return etagOfObjectBytes(utf8Bytes(objectText));
}

const COMMA_CLOSE = Buffer.from(',}');

/**
 * etagWithoutRequestId from the object text's UTF-8 bytes: a route renders them once for the ETag and the body it
 * sends (withRequestIdBytes), rather than encoding the same text twice more (src/rest/adapter.ts answerBytes).
 */
export function etagOfObjectBytes(objectBytes: Buffer): string {
  return weakEtagOfBytes(objectBytes.length > 2 ? Buffer.concat([objectBytes.subarray(0, -1), COMMA_CLOSE]) : objectBytes);
}

/** The UTF-8 bytes of `withRequestId(objectText, requestId)`, made from objectText's bytes without encoding it again. */
export function withRequestIdBytes(objectBytes: Buffer, requestId: string): Buffer<ArrayBuffer> {
  const member = Buffer.from(`${objectBytes.length > 2 ? ',' : ''}"request_id":"${requestId}"}`);
  return Buffer.concat([objectBytes.subarray(0, -1), member]);
}

/** Statuses whose responses never carry a body (Fetch's null body statuses). */
const BODYLESS_STATUSES = new Set([101, 103, 204, 205, 304]);

/** br or gzip, as the client prefers (br first at equal weight), for text bodies of 1 KB or more. */
export async function withCompression(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  // The status, not `response.body`: reading body makes whatwg-node build a stream (and a Proxy of it) for a text body
  // it would otherwise write as it is, ~3 % of a small route's CPU (docs/performance.md, "stop 25").
  if (BODYLESS_STATUSES.has(response.status) || response.headers.has('content-encoding') || !COMPRESSIBLE.test(type) || request.method === 'HEAD')
    return response;
  const encoding = preferredEncoding(request.headers.get('accept-encoding'));
  if (!encoding) {
    // Nothing to pack: the body is passed on as it is, never buffered again.
    response.headers.append('vary', 'Accept-Encoding');
    return response;
  }
  const headers = new Headers(response.headers);
  headers.append('vary', 'Accept-Encoding');
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength < COMPRESS_MIN_BYTES) return new Response(bytes, { status: response.status, headers });
  const packed =
    encoding === 'br'
      ? await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
      : await gzipAsync(bytes, { level: 6 });
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(packed.byteLength));
  return new Response(packed, { status: response.status, headers });
}

/** Whether withCompression would pack a body of `byteLength` bytes for this Accept-Encoding. */
export function wouldCompress(acceptEncoding: string | null | undefined, byteLength: number): boolean {
  return byteLength >= COMPRESS_MIN_BYTES && preferredEncoding(acceptEncoding ?? null) !== null;
}

/** The encoding the client prefers of those withCompression packs in (br first at equal weight). */
function preferredEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = acceptedEncodings(acceptEncoding);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : null;
}

const NO_ENCODINGS: ReadonlySet<string> = new Set();

/** Encodings with a non-zero q in Accept-Encoding; none when it is absent or empty (most API clients). */
function acceptedEncodings(header: string | null): ReadonlySet<string> {
  if (!header) return NO_ENCODINGS;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

/** HEAD: the GET answer's status and headers (Content-Length included), no body. */
export async function asHead(response: Response): Promise<Response> {
  const length = response.body ? (await response.arrayBuffer()).byteLength : 0;
  const headers = new Headers(response.headers);
  if (!headers.has('content-length')) headers.set('content-length', String(length));
  return new Response(null, { status: response.status, headers });
}
