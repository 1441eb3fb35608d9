/**
 * Browsers call the API from couples' web apps. Keys travel in headers, never cookies, so any origin may call;
 * the rate limit and request id headers are exposed so clients can back off (§8.10).
 */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
};

export const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, X-Service-Key, Content-Type, X-Idempotency-Key, X-Request-Id',
  'access-control-max-age': '600',
};
