import type { OpenAPIV3_1 } from 'openapi-types';
import { ERROR_CATALOGUE, ERROR_TYPES, docUrl, statusOf, type ErrorCode } from '../errors/catalogue.js';
import { componentRef } from './openapi-schemas.js';

/**
 * Codes every keyed /api/v1 route can answer with besides its own (RestRoute.errors): §5 authentication, §8 limits,
 * §7 internal failures, and invalid_parameters because the adapter refuses unknown or repeated query parameters on
 * every route (params.ts variablesFromQuery).
 */
export const COMMON_ERRORS: readonly ErrorCode[] = [
  'invalid_parameters',
  'missing_api_key',
  'invalid_api_key',
  'rate_limit_exceeded',
  'internal_error',
  'database_error',
];

/** Where a code's behaviour goes beyond its catalogue message: decisions the spec leaves open ("not shown"). */
const NOTES: Partial<Record<ErrorCode, string>> = {
  invalid_parameters: 'Also answered for a query parameter the route does not have, or one given more than once; `param` names it.',
  invalid_cursor: 'A cursor is bound to the filters (and sort) it was issued for; with other filters it is refused.',
  invalid_api_key: 'Carries no rate-limit headers: the key is checked before any limit is counted (§5.4).',
  missing_api_key: 'Counted against the per-IP limit for requests without a key (§8.4).',
};

const header = (description: string, schema: OpenAPIV3_1.SchemaObject, required = false): OpenAPIV3_1.HeaderObject =>
  ({ description, required, schema }) as OpenAPIV3_1.HeaderObject;

/** §8.3 headers, plus the request id every response carries. */
export const HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  'X-Request-Id': header(
    'Request identifier, equal to request_id in the body. A well-formed X-Request-Id sent by the client is echoed; otherwise the API makes one (req_…).',
    { type: 'string' },
    true,
  ),
  'X-RateLimit-Limit': header(
    "Requests allowed per minute: the key's tier allowance, or the per-IP allowance for requests without a key (§8.3–8.4). Absent on a 401 invalid_api_key.",
    { type: 'integer', minimum: 0 },
  ),
  'X-RateLimit-Remaining': header('Requests left in the current one-minute window.', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Reset': header('Unix time in seconds when the current window resets.', { type: 'integer', minimum: 0 }),
  'Retry-After': header('Seconds to wait before retrying (429 only).', { type: 'integer', minimum: 0 }, true),
};

const headerRef = (name: string): OpenAPIV3_1.ReferenceObject => ({ $ref: `#/components/headers/${name}` });

/** The headers a response at `status` documents: request id always, rate-limit headers, Retry-After on 429. */
export function responseHeaders(status: number): Record<string, OpenAPIV3_1.ReferenceObject> {
  const names = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
  if (status === 429) names.push('Retry-After');
  return Object.fromEntries(names.map((n) => [n, headerRef(n)]));
}

/** components.schemas.Error: the §7 envelope errorBody() writes, with every catalogue code and type. */
export function errorSchema(baseUrl: string): OpenAPIV3_1.SchemaObject {
  return {
    type: 'object',
    description: 'The error envelope (§7). The code names the condition; the type its category and HTTP status.',
    properties: {
      error: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: Object.keys(ERROR_TYPES), description: 'Category; determines the HTTP status.' },
          code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'Specific condition.' },
          message: { type: 'string', description: 'Human-readable; may name each failing field.' },
          param: { type: 'string', description: 'The parameter or body field at fault, as the request named it; present when there is one.' },
          request_id: { type: 'string', description: 'Request identifier; the same as the X-Request-Id header.' },
          doc_url: { type: 'string', description: `Documentation of the code: ${docUrl(baseUrl, '<code>')}.` },
          hint: { type: 'string', description: 'Next step, present when one is clear.' },
        },
        required: ['type', 'code', 'message', 'request_id', 'doc_url'],
      },
    },
    required: ['error'],
  };
}

function describeCode(code: ErrorCode): string {
  const entry: { type: string; message: string; hint?: string } = ERROR_CATALOGUE[code];
  const parts = [entry.message, entry.hint, NOTES[code]].filter(Boolean).join(' ');
  return `- \`${code}\` (${entry.type}): ${parts}`;
}

/** Error responses by status: each lists its possible codes and narrows Error's code enum to them. */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, OpenAPIV3_1.ResponseObject> {
  const order = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of order.filter((c) => codes.includes(c))) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const entries = [...byStatus.entries()].sort(([a], [b]) => a - b);
  return Object.fromEntries(
    entries.map(([status, list]) => [
      String(status),
      {
        description: `${list.join(', ')}.\n\n${list.map(describeCode).join('\n')}`,
        headers: responseHeaders(status),
        content: {
          'application/json': {
            schema: { allOf: [componentRef('Error'), { properties: { error: { properties: { code: { enum: list } } } } }] },
          },
        },
      },
    ]),
  );
}
