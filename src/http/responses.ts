import type { ApiError } from '../errors/api-error.js';
import { errorBody, errorExtensions } from '../errors/translate.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/** The §7 envelope: one of the two places errors are translated (the other is GraphQL error formatting). */
export function errorResponse(error: ApiError, requestId: string, baseUrl: string): Response {
  return json(error.status, { error: errorBody(error, requestId, baseUrl) }, error.headers ?? {});
}

/** A request refused before GraphQL runs (no key), answered in GraphQL's own response shape. */
export function graphqlErrorResponse(error: ApiError, requestId: string, baseUrl: string): Response {
  return json(error.status, { errors: [{ message: error.message, extensions: errorExtensions(error, requestId, baseUrl) }] }, error.headers ?? {});
}
