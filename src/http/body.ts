import { ApiError } from '../errors/api-error.js';
import type { HeaderReader } from '../graphql/context.js';

/** 413: the body passed the limit, refused before any of it is parsed. */
export const payloadTooLarge = (maxBytes: number): ApiError =>
  new ApiError('payload_too_large', { message: `The request body is larger than ${maxBytes} bytes.` });

/**
 * The request body, refused with 413 as soon as it passes `maxBytes` — before any of it is parsed, whether the
 * client declared its length or streamed it chunked.
 */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => payloadTooLarge(maxBytes);
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (declared === 0) return new Uint8Array();
  if (Number.isFinite(declared) && !request.headers.has('transfer-encoding')) {
    // A declared length within the limit: Node's parser delivers exactly that many bytes (it refuses a request that
    // also says chunked), read in one go instead of through a ReadableStream's reader and async iterator, which cost
    // every POST. Checked once read: an in-process caller's headers pass no parser.
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge();
    return bytes;
  }
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return joined(chunks, size);
}

/** Chunks of a body read as it streamed, in one buffer of their `size` bytes. */
export function joined(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Content-Encoding other than identity is refused: bodies are read as sent, never decompressed (a zip bomb). */
export function assertUncompressed(headers: HeaderReader): void {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError('unsupported_media_type', { message: `Content-Encoding ${encoding} is not supported; send the body uncompressed.` });
  }
}

/** A JSON request body (the inquiry routes): Content-Type application/json (any charset), uncompressed. */
export function assertJsonBody(headers: HeaderReader): void {
  const type = headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError('unsupported_media_type', { message: `Content-Type must be application/json${type ? `, not ${type}` : ''}.` });
  }
  assertUncompressed(headers);
}

/**
 * GraphQL over GET: `variables` and `extensions` must be JSON objects. Checked here so a malformed one is a 400
 * naming the parameter, not an unexpected error inside Yoga.
 */
export function assertGraphQLGetParams(search: URLSearchParams): void {
  for (const param of ['variables', 'extensions']) {
    const text = search.get(param);
    if (text === null || text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('invalid_parameters', { problems: [{ param, problem: 'must be a JSON object' }] });
    }
    if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
      throw new ApiError('invalid_parameters', { problems: [{ param, problem: 'must be a JSON object' }] });
    }
  }
}
