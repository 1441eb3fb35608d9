/**
 * Browsers call the API from couples' web apps. Keys travel in headers, never cookies, so any origin may call;
 * the rate limit and request id headers are exposed so clients can back off (§8.10).
 */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, RateLimit, RateLimit-Policy, ETag, Deprecation, Sunset, Link',
};

const ALLOWED_HEADERS = 'Authorization, X-Service-Key, Content-Type, X-Idempotency-Key, X-Request-Id, If-None-Match, Accept';

/**
 * A CORS preflight's answer: the methods we serve, and the headers the browser asks to send reflected back (a
 * client library may add its own, e.g. a tracing header), else our list. No credentials: keys travel in headers.
 */
export function preflightHeaders(request: Request): Record<string, string> {
  const asked = request.headers.get('access-control-request-headers');
  const safe = asked && /^[A-Za-z0-9!#$%&'*+.^_`|~ ,-]{1,1000}$/.test(asked) ? asked : ALLOWED_HEADERS;
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
    'access-control-allow-headers': safe,
    'access-control-max-age': '600',
    vary: 'Access-Control-Request-Headers',
  };
}
