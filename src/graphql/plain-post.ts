import type { GraphQLParams } from 'graphql-yoga';
import type { HeaderReader } from './context.js';

/** The media types a plain POST may ask for, each as Yoga's result processors answer it. */
export type PlainPostMediaType = 'application/json' | 'application/graphql-response+json';

/** A GraphQL POST that Yoga's request parsing would hand on as it is: its parameters, and the media type of its answer. */
export interface PlainPost {
  params: GraphQLParams;
  mediaType: PlainPostMediaType;
}

/**
 * Accept values that name one media type. Yoga picks the last of its processors that matches, and `*` matches its
 * regular processor's application/json last; a list, a quality or another parameter is left to Yoga's negotiation.
 */
const ANSWERED_AS: Record<string, PlainPostMediaType> = {
  '*/*': 'application/json',
  'application/json': 'application/json',
  'application/graphql-response+json': 'application/graphql-response+json',
};
const UTF8_PARAMETER = ';charset=utf-8';

/** The parameters Yoga reads from a body (graphql-yoga's checkGraphQLQueryParams). */
const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const utf8 = new TextDecoder();

/**
 * A POST body's text, as both paths read it: Yoga's parsers (through useBodyAlreadyRead, src/graphql/yoga.ts) and
 * plainPostOf. Invalid UTF-8 becomes U+FFFD, as in Request.text().
 */
export const bodyText = (body: Uint8Array): string => utf8.decode(body);

/** application/json with or without parameters, case as sent (as Yoga tests it). */
export const isJsonContentType = (type: string): boolean => type === 'application/json' || type.startsWith('application/json;');

/**
 * The request as a plain POST, or null for Yoga's own parsing: a POST of application/json (tested as Yoga tests it:
 * the first value, case as sent), asking for one JSON media type, whose body's text (bodyText, which Yoga's parsers
 * read too) is an object of Yoga's four parameters, each of a type Yoga's checks accept. Anything else,
 * including what Yoga would refuse or parse otherwise (a batch, a GraphQL or form body, a null-valued extra key),
 * goes through Yoga, which answers it as before.
 */
export function plainPostOf(request: { method: string; headers: HeaderReader }, body: Uint8Array): PlainPost | null {
  if (request.method !== 'POST') return null;
  if (!isJsonContentType((request.headers.get('content-type') ?? '').split(',')[0])) return null;
  const accept = (request.headers.get('accept') || '*/*').replace(/\s/g, '').toLowerCase();
  const mediaType = ANSWERED_AS[accept.endsWith(UTF8_PARAMETER) ? accept.slice(0, -UTF8_PARAMETER.length) : accept];
  if (!mediaType) return null;
  let params: unknown;
  try {
    params = JSON.parse(bodyText(body));
  } catch {
    return null;
  }
  if (!isObject(params)) return null;
  for (const key of Object.keys(params)) if (!PARAMETERS.has(key)) return null;
  const { query, variables, operationName, extensions } = params;
  if (typeof query !== 'string') return null;
  if (variables != null && !isObject(variables)) return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  if (extensions != null && !isObject(extensions)) return null;
  return { params: params as GraphQLParams, mediaType };
}
