import type { ApiError } from '../errors/api-error.js';
import { classifyEmptyAnswer } from '../errors/classify.js';
import { graphqlErrorExtensions } from '../graphql/errors.js';
import { Headers, Response } from './fetch-api.js';
import { graphqlMediaType, json } from './responses.js';

/*
 * GraphQL's error shape as an HTTP answer, for what the /graphql surface refuses itself and for Yoga's empty-bodied
 * refusals; the extensions are the executor's renderer (src/graphql/errors.ts).
 */

/**
 * A GraphQL request refused by the HTTP layer (no key, a limit, a body too large, an unexpected error), answered in
 * GraphQL's own response shape and in the media type Yoga would have answered the same Accept with (`accept`: the
 * request's header), so a client reads our refusals as it reads Yoga's.
 */
export function graphqlErrorResponse(error: ApiError, requestId: string, baseUrl: string, accept: string | null | undefined): Response {
  // The response carries the error's headers (Retry-After): extensions do not repeat them.
  const body = { errors: [{ message: error.message, extensions: graphqlErrorExtensions(error, requestId, baseUrl, { headersSent: true }) }] };
  return json(error.status, body, { ...error.headers, 'content-type': `${graphqlMediaType(accept)}; charset=utf-8` });
}

/** Space, tab, line feed, carriage return: all a JSON text may hold besides its value (RFC 8259 §2). */
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Yoga answers some HTTP-level refusals with an empty body (415 for a media type it cannot read, 406 for an Accept it
 * cannot meet, 405): give them the GraphQL response shape with the catalogue's code, like every other error.
 */
export async function withGraphQLErrorBody(
  response: Response,
  requestId: string,
  baseUrl: string,
  accept: string | null | undefined,
): Promise<Response> {
  if (response.status < 400) return response;
  // The bytes as Yoga's answer has them (withJsonBytes encoded them once): passed on, not decoded and encoded again.
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.some((byte) => !JSON_WHITESPACE.has(byte))) return new Response(bytes, { status: response.status, headers: response.headers });
  const answer = graphqlErrorResponse(classifyEmptyAnswer(response.status), requestId, baseUrl, accept);
  const headers = new Headers(response.headers);
  headers.set('content-type', answer.headers.get('content-type')!);
  return new Response(answer.body, { status: response.status, headers });
}
