/**
 * The one catalogue of error codes (§7). The classifier (src/errors/classify.ts) names a code of it for anything
 * thrown, and every surface's renderer states that code's type, status and doc URL. Messages here are defaults;
 * services may give a more precise one.
 */
export const ERROR_TYPES = {
  invalid_request_error: 400,
  validation_error: 400,
  authentication_error: 401,
  not_found: 404,
  conflict: 409,
  rate_limit_exceeded: 429,
  internal_error: 500,
  /**
   * Not a §7 type: the HTTP request itself was refused before the API read it (malformed, too large, wrong media
   * type or encoding, headers too large, too slow). §7's types each map to one status; this one's status is the HTTP
   * status that names the refusal (400, 406, 408, 413, 415, 431), 400 by default.
   */
  request_error: 400,
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

interface CatalogueEntry {
  type: ErrorType;
  /** HTTP status; defaults to the type's status. */
  status?: number;
  message: string;
  hint?: string;
}

export const ERROR_CATALOGUE = {
  sms_consent_required: {
    type: 'invalid_request_error',
    message: 'sms_consent is required and must be a boolean.',
    hint: 'Send sms_consent: true only if the end user agreed to be texted, false otherwise.',
  },
  invalid_parameters: { type: 'validation_error', message: 'One or more parameters failed validation.' },
  invalid_json: {
    type: 'validation_error',
    message: 'The request body is not valid JSON.',
    hint: 'Send a JSON object with Content-Type: application/json.',
  },
  payload_too_large: { type: 'request_error', status: 413, message: 'The request body is too large.' },
  unsupported_media_type: {
    type: 'request_error',
    status: 415,
    message: 'The request body must be application/json, not compressed.',
    hint: 'Send Content-Type: application/json and no Content-Encoding (or identity).',
  },
  not_acceptable: {
    type: 'request_error',
    status: 406,
    message: 'The response cannot be given in a media type the Accept header allows.',
    hint: 'Accept application/json (or application/graphql-response+json on /graphql).',
  },
  malformed_request: {
    type: 'request_error',
    message: 'The HTTP request is malformed.',
    hint: 'Send an origin-form target (/api/v1/…), a valid Host header and well-formed HTTP/1.1.',
  },
  headers_too_large: {
    type: 'request_error',
    status: 431,
    message: 'The request headers are too large.',
    hint: 'Send fewer or shorter headers (at most 16 KB in all).',
  },
  request_timeout: {
    type: 'request_error',
    status: 408,
    message: 'The request did not arrive in time.',
    hint: 'Send the whole request within 30 s.',
  },
  method_not_allowed: {
    type: 'request_error',
    status: 405,
    message: 'This method is not allowed here.',
    hint: 'GraphQL takes GET for queries and POST for queries and mutations.',
  },
  invalid_graphql_request: {
    type: 'request_error',
    message: 'The GraphQL request is malformed.',
    hint: 'Send one operation as {"query": "...", "variables": {...}, "operationName": "..."}; batches are not accepted.',
  },
  graphql_parse_failed: {
    type: 'invalid_request_error',
    message: 'The GraphQL document could not be parsed.',
    hint: 'The message and locations point at the first syntax error.',
  },
  graphql_validation_failed: {
    type: 'invalid_request_error',
    message: 'The GraphQL document is not valid against the schema.',
    hint: 'Check field and argument names against the schema (GraphiQL at /graphql completes them).',
  },
  persisted_query_not_found: {
    type: 'not_found',
    message: 'No persisted operation has this hash.',
    hint: 'Send extensions.persistedQuery.sha256Hash of a document in the deployed manifest (persisted-documents.json); regenerate the client after the server updates it.',
  },
  persisted_query_only: {
    type: 'invalid_request_error',
    message: 'This server runs persisted operations only; a document sent as text is refused.',
    hint: 'Send {"extensions":{"persistedQuery":{"version":1,"sha256Hash":"<hex>"}}} with the hash from the generated manifest, not query.',
  },
  query_too_complex: {
    type: 'invalid_request_error',
    message: 'The GraphQL operation asks for too much in one request.',
    hint: 'extensions.bound, max and actual say which bound; ask for smaller pages or split the operation.',
  },
  invalid_cursor: {
    type: 'validation_error',
    message: 'The cursor was not issued by this API for this search.',
    hint: 'Pass pagination.next_cursor from the previous page unchanged, with the same filters.',
  },
  invalid_id: { type: 'validation_error', message: 'The id must be a UUID.' },
  invalid_slug: {
    type: 'validation_error',
    message: 'The slug has characters a slug cannot have.',
    hint: 'Use the slug from search results, URL-encoded so each slash becomes %2F.',
  },
  invalid_region: { type: 'validation_error', message: 'Unknown pricing region.' },
  invalid_season: { type: 'validation_error', message: 'season must be one of peak, shoulder, off.' },
  invalid_event_type: { type: 'validation_error', message: 'event_type must be weekday or weekend.' },
  invalid_event_guests: { type: 'validation_error', message: 'event_guests must be an integer from 1 to 500.' },
  invalid_overnight_guests: { type: 'validation_error', message: 'overnight_guests must be an integer from 1 to 350.' },
  invalid_nights: { type: 'validation_error', message: 'nights must be an integer from 2 to 7.' },
  invalid_venue_type: { type: 'validation_error', message: 'venue_type is not a listed type.' },
  region_required: {
    type: 'validation_error',
    message: 'Give a region: slug, state or city.',
    hint: 'Pass slug (from covered_regions), state (name, USPS code, country or colloquial region) or city.',
  },
  invalid_season_name: { type: 'validation_error', message: 'season must be spring, summer, fall, autumn, winter, a month name, or 01 to 12.' },
  invalid_guests: { type: 'validation_error', message: 'guests must be an integer from 1 to 2000.' },
  affiliate_only_vendor: { type: 'validation_error', message: 'This vendor takes no inquiries.' },
  missing_api_key: {
    type: 'authentication_error',
    message: 'No API key was supplied.',
    hint: 'Send Authorization: Bearer <API_KEY> or X-Service-Key: <API_KEY>.',
  },
  invalid_api_key: { type: 'authentication_error', message: 'The API key is invalid or has been revoked.' },
  venue_not_found: { type: 'not_found', message: 'No published venue has this slug.' },
  vendor_not_found: { type: 'not_found', message: 'No listed vendor has this slug.' },
  blog_post_not_found: { type: 'not_found', message: 'No published post has this slug.' },
  inspiration_photo_not_found: { type: 'not_found', message: 'No inspiration photo has this id.' },
  route_not_found: { type: 'not_found', message: 'No route matches this path.', hint: 'API routes are under /api/v1; see /api/v1/openapi.json.' },
  idempotency_conflict: { type: 'conflict', message: 'This idempotency key was used with a different body.' },
  idempotency_in_progress: {
    type: 'conflict',
    message: 'A request with this idempotency key is still processing.',
    hint: 'Retry after a few seconds with the same key and body.',
  },
  rate_limit_exceeded: { type: 'rate_limit_exceeded', message: 'Rate limit exceeded.', hint: 'Wait for Retry-After seconds, then retry.' },
  venue_detail_rate_limit_exceeded: {
    type: 'rate_limit_exceeded',
    message: 'Daily venue detail lookups used up.',
    hint: 'Wait for Retry-After seconds; search results already carry most venue fields.',
  },
  inquiry_rate_limit_exceeded: {
    type: 'rate_limit_exceeded',
    message: 'Daily inquiry limit used up.',
    hint: 'Wait for Retry-After seconds before sending another inquiry.',
  },
  internal_error: {
    type: 'internal_error',
    message: 'An unexpected error occurred.',
    hint: 'Retry once; if it persists, contact support with the request_id.',
  },
  database_error: { type: 'internal_error', message: 'A database read failed.', hint: 'Retry with exponential backoff.' },
  insert_failed: {
    type: 'internal_error',
    message: 'The inquiry could not be saved.',
    hint: 'Retry with the same X-Idempotency-Key after a few seconds; it is safe (no second lead).',
  },
  service_unavailable: {
    type: 'internal_error',
    status: 503,
    message: 'The service is temporarily unavailable.',
    hint: 'Retry with exponential backoff.',
  },
  knowledge_unavailable: {
    type: 'internal_error',
    status: 503,
    message: 'The knowledge store is unavailable.',
    hint: 'Retry with exponential backoff.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function statusOf(code: ErrorCode): number {
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  return entry.status ?? ERROR_TYPES[entry.type];
}

export function docUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/developers/errors#${code}`;
}
