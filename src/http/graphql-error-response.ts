import type { ApiError } from '../errors/api-error.js';
import { classifyEmptyAnswer } from '../errors/classify.js';
import { graphqlErrorExtensions } from '../graphql/errors.js';
import type { Answer } from './answer.js';
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
export function graphqlErrorAnswer(error: ApiError, requestId: string, baseUrl: string, accept: string | null | undefined): Answer {
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
export function withGraphQLErrorBody(answer: Answer, requestId: string, baseUrl: string, accept: string | null | undefined): Answer {
  if (answer.status < 400 || answer.body?.some((byte) => !JSON_WHITESPACE.has(byte))) return answer;
  const refusal = graphqlErrorAnswer(classifyEmptyAnswer(answer.status), requestId, baseUrl, accept);
  answer.headers.set('content-type', refusal.headers.get('content-type')!);
  answer.headers.set('content-length', refusal.headers.get('content-length')!);
  answer.body = refusal.body;
  return answer;
}
