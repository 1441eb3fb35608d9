import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  crc32,
  deflateRaw,
  deflateRawSync,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { RESPONSE_CACHE_TEXT } from '../cache/response-cache.js';
import { SERVER_TIMEOUTS } from './server.js';
import { BODYLESS_STATUSES, type Answer } from './answer.js';
import { utf8Bytes } from './utf8.js';
import { zstdCompress, zstdStoredFrame } from './zstd.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const deflateRawAsync = promisify(deflateRaw);

/** Bodies smaller than this are sent as they are: compression would cost more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Levels for answers compressed as they are sent (JSON, never packed ahead): for each encoding the cheapest level whose
 * answers stay about as small as gzip 6's (what the web commonly sends), measured on R1's and R4's bodies by
 * `npx tsx bench/compression-levels.ts` (`npm run bench` prints the same for its own bodies). Brotli quality 5 cost about
 * twice quality 3's CPU for a few per cent fewer bytes; quality 1 and gzip 1 are cheaper still but noticeably larger.
 * zstd 2 and 3 cost more than 1 for answers hardly smaller.
 */
export const DYNAMIC_COMPRESSION = { br: 3, zstd: 1, gzip: 4 } as const;

/**
 * Bodies up to this size are compressed on the event loop, larger ones on the thread pool (zlib's encodings; zstd's
 * WebAssembly build runs on the loop whatever the size). A call on the pool cost several times the CPU of the same call
 * in line (the hop, and an encoder whose memory a pool thread's arena hands back and faults in again every time;
 * bench/compression-levels.ts measures both), while a search page takes the loop for well under a millisecond: no
 * longer than serialising it did.
 */
const SYNC_COMPRESS_MAX_BYTES = 128 * 1024;

const IDLE_SECONDS = SERVER_TIMEOUTS.keepAliveTimeoutMs / 1000;
/**
 * A client that keeps idle connections longer than the server can send a request on one just as the server closes it,
 * and sees a reset it cannot tell from a failure: Node 20's http.Agent did exactly that in the bench's open loop,
 * since it follows the Keep-Alive hint only when given a timeout of its own.
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
  `${COMPRESS_MIN_BYTES / 1024} KB or more come compressed when the client sends \`Accept-Encoding\`: br, zstd or gzip, the one it ` +
  'weighs highest (`q`), br before zstd before gzip at equal weight. Every GET route ' +
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
export function applyCaching(answer: Answer, ifNoneMatch: string | null, requestId: string, cacheable: boolean): void {
  const { headers } = answer;
  if (!cacheable || answer.status !== 200) {
    headers.delete('etag');
    if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
    return;
  }
  // A REST route names its ETag as it renders the body (and a cached answer keeps it), so its body is not read again.
  let etag = headers.get('etag');
  if (etag === null) {
    etag = weakEtag((answer.body?.toString('utf8') ?? '').replaceAll(`"request_id":"${requestId}"`, ''));
    headers.set('etag', etag);
  }
  headers.set('cache-control', 'private, max-age=300');
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    headers.delete('content-type');
    headers.delete('content-length');
    answer.status = 304;
    answer.body = null;
  }
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

/**
 * br, zstd or gzip, as the client prefers (preferredEncoding), for text bodies of 1 KB or more. An answer that went
 * through the response cache (X-Cache HIT or MISS) is packed once per encoding (packedAnswers): a warm hit is sent
 * without compressing it again. A promise only when it packs the body.
 */
export function applyCompression(acceptEncoding: string | null, answer: Answer): Promise<void> | void {
  const { headers, body } = answer;
  const type = headers.get('content-type') ?? '';
  if (BODYLESS_STATUSES.has(answer.status) || headers.has('content-encoding') || !COMPRESSIBLE.test(type)) return;
  headers.append('vary', 'Accept-Encoding');
  const encoding = preferredEncoding(acceptEncoding);
  if (!encoding || !body || body.byteLength < COMPRESS_MIN_BYTES) return;
  return (headers.has('x-cache') ? packedAnswer(body, encoding, headers.get('etag')) : compressAnswer(body, encoding)).then((packed) => {
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(packed.byteLength));
    answer.body = packed;
  });
}

/** One answer compressed whole at the dynamic levels (bench/baseline-server.ts compresses its answers with it too). */
export async function compressAnswer(bytes: Uint8Array, encoding: Encoding): Promise<Buffer<ArrayBuffer>> {
  if (encoding === 'zstd') return zstdCompress(bytes, DYNAMIC_COMPRESSION.zstd);
  const inLine = bytes.byteLength <= SYNC_COMPRESS_MAX_BYTES;
  if (encoding === 'br') return inLine ? brotliCompressSync(bytes, brotliOptions(bytes)) : brotliAsync(bytes, brotliOptions(bytes));
  const options = { level: DYNAMIC_COMPRESSION.gzip };
  return inLine ? gzipSync(bytes, options) : gzipAsync(bytes, options);
}

const brotliOptions = (bytes: Uint8Array, more: BrotliOptions = {}): BrotliOptions => ({
  ...more,
  params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_COMPRESSION.br, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
});

/**
 * The stable part of an answer compressed and flushed, not finished, so that the rest (the request_id member, which
 * differs on every answer) can follow it uncompressed: a gzip stream's deflate data ending in a sync flush, with the
 * CRC-32 and length of what it holds (the gzip trailer needs them); or a brotli stream ending in a flush.
 */
interface PackedPrefix {
  stream: Buffer;
  crc: number;
  length: number;
}

/**
 * Packed stable parts by encoding, length and content (the ETag, itself a hash of the body without its request_id,
 * or a SHA-256 of the part), so an entry can never be sent for other bytes. One per process rather than per app:
 * withCompression is handed only the request and the response, and an entry is right for any app that sends the
 * same bytes. Bounded by size; the least recently used go first.
 */
let packedAnswers: LRUCache<string, PackedPrefix> | undefined;
/** Bytes of packed streams kept (about a fifth of the JSON they stand for). */
const PACKED_ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

const REQUEST_ID_MEMBER = Buffer.from('"request_id":"');
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;

/** Where a REST body's trailing `"request_id":"…"}` starts (withRequestIdBytes puts it last); the length when none. */
function stableLength(body: Buffer): number {
  const at = body.lastIndexOf(REQUEST_ID_MEMBER);
  if (at < 0 || body[body.length - 1] !== CLOSE_BRACE || body[body.length - 2] !== QUOTE) return body.length;
  // A request id is at most 64 characters (src/http/request-id.ts); anything longer is not that member.
  if (body.length - at > 128) return body.length;
  return body.indexOf(QUOTE, at + REQUEST_ID_MEMBER.length) === body.length - 2 ? at : body.length;
}

async function packedAnswer(body: Buffer, encoding: Encoding, etag: string | null): Promise<Buffer<ArrayBuffer>> {
  const split = stableLength(body);
  const stable = body.subarray(0, split);
  const key = `${encoding} ${split} ${etag ?? hash('sha256', stable, 'base64url')}`;
  packedAnswers ??= new LRUCache({ maxSize: PACKED_ANSWERS_MAX_BYTES, sizeCalculation: (v, k) => v.stream.byteLength + k.length });
  let prefix = packedAnswers.get(key);
  if (!prefix) {
    prefix = await packPrefix(stable, encoding);
    packedAnswers.set(key, prefix);
  }
  return finishPacked(prefix, body.subarray(split), encoding);
}

async function packPrefix(stable: Buffer, encoding: Encoding): Promise<PackedPrefix> {
  // A whole zstd frame: the answer's tail follows as a frame of its own (finishPacked).
  if (encoding === 'zstd') return { stream: await zstdCompress(stable, DYNAMIC_COMPRESSION.zstd), crc: 0, length: stable.byteLength };
  const inLine = stable.byteLength <= SYNC_COMPRESS_MAX_BYTES;
  if (encoding === 'br') {
    const options = brotliOptions(stable, { finishFlush: constants.BROTLI_OPERATION_FLUSH });
    const stream = inLine ? brotliCompressSync(stable, options) : await brotliAsync(stable, options);
    return { stream: exactCopy(stream), crc: 0, length: stable.byteLength };
  }
  const options: ZlibOptions = { level: DYNAMIC_COMPRESSION.gzip, finishFlush: constants.Z_SYNC_FLUSH };
  const stream = inLine ? deflateRawSync(stable, options) : await deflateRawAsync(stable, options);
  return { stream: exactCopy(stream), crc: crc32(stable), length: stable.byteLength };
}

/**
 * The bytes in a memory of their own, as large as they are, for anything kept past its request. zlib's one-shot output
 * is a view of its 16 KB output chunk, and a small Buffer (Buffer.from, Buffer.concat) a slice of an 8 KB pool slab:
 * a kept view holds the whole of either, outside what a cache's bound counts (docs/operations.md#memory).
 */
export function exactCopy(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}

/** gzip member header (RFC 1952): deflate, no name or time, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
/** A brotli meta-block that is the last and empty (RFC 7932 §9.2: ISLAST and ISLASTEMPTY set). */
const BROTLI_END = Buffer.from([0x03]);

/** A packed stable part with `rest` after it, uncompressed, as one finished stream of `encoding`. */
function finishPacked(prefix: PackedPrefix, rest: Buffer, encoding: Encoding): Buffer<ArrayBuffer> {
  if (encoding === 'zstd') return Buffer.concat(rest.length ? [prefix.stream, zstdStoredFrame(rest)] : [prefix.stream]);
  if (encoding === 'br') {
    if (!rest.length) return Buffer.concat([prefix.stream, BROTLI_END]);
    // An uncompressed meta-block (RFC 7932 §9.2): ISLAST 0, MNIBBLES 4, MLEN - 1 in 16 bits, ISUNCOMPRESSED 1, then
    // zero bits to the byte boundary (20 bits of header in 3 bytes), then the bytes themselves.
    const bits = ((rest.length - 1) << 3) | (1 << 19);
    return Buffer.concat([prefix.stream, Buffer.from([bits & 0xff, (bits >> 8) & 0xff, bits >> 16]), rest, BROTLI_END]);
  }
  // The last deflate block stored (RFC 1951 §3.2.4: BFINAL 1, BTYPE 00, LEN and its complement), then the trailer.
  const stored = Buffer.alloc(5);
  stored[0] = 0x01;
  stored.writeUInt16LE(rest.length, 1);
  stored.writeUInt16LE(~rest.length & 0xffff, 3);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(rest, prefix.crc), 0);
  trailer.writeUInt32LE((prefix.length + rest.length) >>> 0, 4);
  return Buffer.concat([GZIP_HEADER, prefix.stream, stored, rest, trailer]);
}

export type Encoding = 'br' | 'zstd' | 'gzip';

/** What the server sends when the client weighs several alike: the smallest answers first, then the cheapest to make. */
const ENCODING_ORDER: readonly Encoding[] = ['br', 'zstd', 'gzip'];

/**
 * The encoding withCompression packs in: of those the client accepts (q above 0, `*` standing for any it does not
 * name), the one it weighs highest, ENCODING_ORDER breaking ties; null when it accepts none (most API clients).
 */
export function preferredEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let chosen: Encoding | null = null;
  let best = 0;
  for (const encoding of ENCODING_ORDER) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > best) [chosen, best] = [encoding, weight];
  }
  return chosen;
}
