import type { ApiError } from '../errors/api-error.js';
import { docUrl } from '../errors/catalogue.js';
import { Answer } from './answer.js';
import { utf8Bytes } from './utf8.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return new Answer(status, Object.entries({ 'content-type': JSON_TYPE, ...headers }), utf8Bytes(JSON.stringify(body)));
}

/**
 * The §7 envelope's inner object, as the REST surface renders a classified error (src/errors/classify.ts). The raw
 * socket answers (src/http/server.ts) and the MCP tool errors (src/mcp/mcp.server.ts) carry the same object.
 */
export function errorBody(error: ApiError, requestId: string, baseUrl: string) {
  return {
    type: error.type,
    code: error.code,
    message: error.message,
    ...(error.param ? { param: error.param } : {}),
    request_id: requestId,
    doc_url: docUrl(baseUrl, error.code),
    ...(error.hint ? { hint: error.hint } : {}),
  };
}

/** The REST surface's one renderer: the §7 envelope, with the error's HTTP status and headers. */
export function errorAnswer(error: ApiError, requestId: string, baseUrl: string): Answer {
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

const JSON_ANSWER = /^application\/(graphql-response\+)?json/;

/**
 * A Response Yoga made, as an Answer. Yoga keeps a JSON answer as text, which Node's encoder is slow on: its bytes are
 * encoded once by utf8Bytes. Anything else (an event stream, a multipart answer, an empty refusal) is read as it is.
 */
export async function answerOfYoga(response: Response): Promise<Answer> {
  if (!JSON_ANSWER.test(response.headers.get('content-type') ?? '')) return Answer.of(response);
  const body = utf8Bytes(await response.text());
  return new Answer(response.status, response.headers as unknown as Iterable<[string, string]>, body);
}
