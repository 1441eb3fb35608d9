import type { ErrorCode } from './catalogue.js';

/**
 * When each code is answered (§7's "Condition" column, and ours for the codes §7 does not list). Every code of the
 * catalogue must have one: the developer error pages are generated from the catalogue and this table.
 */
export const ERROR_CONDITIONS = {
  sms_consent_required:
    'An inquiry body has no sms_consent, or one that is not a boolean (§4.10 rule 1). Checked before any other field; no lead is written.',
  invalid_parameters: 'One or more parameters or body fields failed validation: the message names each field and its problem, param the first.',
  invalid_json: 'A request body is not valid JSON (or not UTF-8).',
  payload_too_large: 'A request body is larger than the limit (64 KB by default), whether declared or streamed.',
  unsupported_media_type: 'An inquiry or GraphQL body is not application/json, or is compressed (Content-Encoding other than identity).',
  not_acceptable: 'The Accept header allows no media type the endpoint can answer with.',
  malformed_request: 'The HTTP request itself is malformed: an absolute-form or * target, a bad Host header, bytes that are not HTTP.',
  headers_too_large: 'The request headers exceed 16 KB.',
  request_timeout: 'The request did not arrive within the server timeouts (headers 10 s, whole request 30 s).',
  method_not_allowed: 'GraphQL was called with a method other than GET or POST, or a mutation was sent with GET (GraphQL only).',
  invalid_graphql_request:
    'A GraphQL request Yoga cannot read as one operation: a batch (array), a query that is not a string or is missing, variables or extensions that are not an object, an operationName the document does not define.',
  graphql_parse_failed: 'A GraphQL document has a syntax error or more than 2,000 tokens; locations point at it (GraphQL only).',
  graphql_validation_failed:
    'A GraphQL document asks for fields, arguments or types the schema does not have, or breaks a GraphQL rule (GraphQL only).',
  persisted_query_not_found:
    'A GraphQL request names a persisted operation (extensions.persistedQuery.sha256Hash) that is not in the manifest the server loaded (GraphQL only).',
  persisted_query_only:
    'GRAPHQL_PERSISTED_ONLY is on and a GraphQL request sent a document as text (query) rather than a persisted hash; introspection-only documents are still accepted (GraphQL only).',
  query_too_complex:
    'A GraphQL operation exceeds a bound checked before any resolver runs: nesting 64 (document and variables), __schema once, aliases 15, depth 8, list-aware cost 25,000 (extensions.bound, max, actual).',
  invalid_cursor: 'A cursor was not issued by this API, or was issued for other filters.',
  invalid_id: 'An id path parameter is not a UUID.',
  invalid_slug: 'A slug path parameter has characters a slug cannot have.',
  invalid_region: 'The pricing estimator region is unknown; the message lists the valid ids.',
  invalid_season: 'The pricing estimator season is not peak, shoulder or off.',
  invalid_event_type: 'The pricing estimator event_type is not weekday or weekend.',
  invalid_event_guests: 'The pricing estimator event_guests is not an integer from 1 to 500.',
  invalid_overnight_guests: 'The pricing estimator overnight_guests is not an integer from 1 to 350.',
  invalid_nights: 'The pricing estimator nights is not an integer from 2 to 7.',
  invalid_venue_type: 'The pricing estimator venue_type is not one of its listed types.',
  region_required: 'Regional cost ranges were asked with no region (slug, state or city).',
  invalid_season_name: 'A regional cost range season cannot be parsed (not a season, a month name or 01 to 12).',
  invalid_guests: 'A regional cost range guests is not an integer from 1 to 2000.',
  affiliate_only_vendor: 'A vendor inquiry names a vendor that takes no inquiries here; use its affiliate_link instead.',
  missing_api_key: 'No Authorization: Bearer or X-Service-Key header was sent.',
  invalid_api_key:
    'The key is unknown, malformed or revoked (checked before any limit is counted, so no rate limit headers). A documentation placeholder such as YOUR_API_KEY gets a message saying the key is missing.',
  venue_not_found: 'No published venue has that slug.',
  vendor_not_found: 'No listed vendor has that slug.',
  blog_post_not_found: 'No published blog post has that slug.',
  inspiration_photo_not_found: 'No inspiration photo has that id.',
  route_not_found: 'No route matches the method and path (API routes are under /api/v1).',
  idempotency_conflict: 'An X-Idempotency-Key was reused with a different body within 24 hours.',
  idempotency_in_progress: 'The request with this X-Idempotency-Key is still being processed; retry after a few seconds.',
  rate_limit_exceeded: 'The per-minute or daily allowance is used up (or an address sent too many invalid keys); wait for Retry-After.',
  venue_detail_rate_limit_exceeded: 'The 20 daily venue detail lookups of the key are used up (counted apart from reads).',
  inquiry_rate_limit_exceeded: 'The 5 daily inquiries of this kind (venue or vendor) of the key are used up.',
  internal_error: 'An unexpected error: nothing about it is shown; it is logged with the request_id.',
  database_error: 'A database read failed.',
  insert_failed: 'An inquiry could not be saved. Nothing was stored; retrying with the same X-Idempotency-Key is safe.',
  service_unavailable: 'A dependency the request needs (the rate limit store for inquiries) is unavailable, or the server is shutting down.',
  knowledge_unavailable: 'The planning knowledge store is unavailable.',
} as const satisfies Record<ErrorCode, string>;
