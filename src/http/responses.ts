import { ApiError } from '../errors/api-error.js';
import { errorBody, errorExtensions } from '../errors/translate.js';
import { Headers, Response } from './fetch-api.js';
import { utf8Bytes } from './utf8.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Space, tab, line feed, carriage return: all a JSON text may hold besides its value (RFC 8259 §2). */
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/** The §7 envelope: one of the two places errors are translated (the other is GraphQL error formatting). */
export function errorResponse(error: ApiError, requestId: string, baseUrl: string): Response {
  return json(error.status, { error: errorBody(error, requestId, baseUrl) }, error.headers ?? {});
}

/** The media types a GraphQL answer is given in, as Yoga's regular result processor gives them. */
export type GraphQLMediaType = 'application/json' | 'application/graphql-response+json';

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

/** Whether an Accept media range (a type, `application/*`, the any-type wildcard) matches `type`, as Yoga tests it. */
function rangeMatches(range: string, type: GraphQLMediaType): boolean {
  const [rangeType, rangeSubtype] = range.split('/');
  const [mainType, subtype] = type.split('/');
  return (rangeType === '*' || rangeType === mainType) && (rangeSubtype === '*' || rangeSubtype === subtype);
}

/**
 * The media type of a GraphQL answer for this Accept header, chosen as Yoga chooses it for the answers it writes
 * (graphql-yoga's useResultProcessors), so our refusals and Yoga's answers agree: the first listed range that allows
 * a JSON type decides, application/json when it allows both (a wildcard), quality values aside; a range with a
 * charset other than utf-8 is skipped. An Accept that allows neither gets application/json, as the GraphQL-over-HTTP
 * spec lets a server answer instead of 406, so the refusal's code is still read.
 */
export function graphqlMediaType(accept: string | null | undefined): GraphQLMediaType {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [range, ...parameters] = entry.split(';');
    const charset = parameters.find((parameter) => parameter.includes('charset='));
    if (charset !== undefined && charset !== 'charset=utf-8') continue;
    if (rangeMatches(range, 'application/json')) return 'application/json';
    if (rangeMatches(range, GRAPHQL_RESPONSE_JSON)) return GRAPHQL_RESPONSE_JSON;
  }
  return 'application/json';
}

/**
 * A GraphQL request refused by the HTTP layer (no key, a limit, a body too large, an unexpected error), answered in
 * GraphQL's own response shape and in the media type Yoga would have answered the same Accept with (`accept`: the
 * request's header), so a client reads our refusals as it reads Yoga's.
 */
export function graphqlErrorResponse(error: ApiError, requestId: string, baseUrl: string, accept: string | null | undefined): Response {
  const body = { errors: [{ message: error.message, extensions: errorExtensions(error, requestId, baseUrl) }] };
  return json(error.status, body, { ...error.headers, 'content-type': `${graphqlMediaType(accept)}; charset=utf-8` });
}

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
  const code = response.status === 415 ? 'unsupported_media_type' : response.status === 406 ? 'not_acceptable' : 'malformed_request';
  const answer = graphqlErrorResponse(new ApiError(code), requestId, baseUrl, accept);
  const headers = new Headers(response.headers);
  headers.set('content-type', answer.headers.get('content-type')!);
  return new Response(answer.body, { status: response.status, headers });
}

const JSON_ANSWER = /^application\/(graphql-response\+)?json/;

/**
 * A JSON answer made elsewhere (Yoga, the MCP SDK), re-made with its UTF-8 bytes as its body. Yoga's keeps its JSON as
 * text, which the socket write would put through Node's slow encoder; those bytes are encoded once by utf8Bytes. The
 * SDK's is Node's own Response, whose body is a stream the HTTP adapter would pump chunk by chunk; its bytes are read
 * once. Event streams and multipart answers are left as they are: they are written as they come.
 */
export async function withJsonBytes(answer: Response): Promise<Response> {
  if (!JSON_ANSWER.test(answer.headers.get('content-type') ?? '')) return answer;
  const body: Pick<Response, 'text' | 'arrayBuffer'> = answer;
  const bytes = answer instanceof Response ? utf8Bytes(await body.text()) : Buffer.from(await body.arrayBuffer());
  return new Response(bytes, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}
