import type { CORSOptions } from '@whatwg-node/server';

/**
 * Browsers call the API from couples' web apps. CORS is done by @whatwg-node/server's useCORS (the implementation
 * Yoga uses), for every route and page alike: preflights are answered with the methods we serve and the headers the
 * browser asks to send reflected back (a client library may add its own, e.g. a tracing header); responses expose
 * the rate limit, request id and caching headers so clients can back off and revalidate (§8.10). No credentials:
 * keys travel in headers, never cookies, so any origin may call unless CORS_ORIGINS names the allowed ones.
 */
export function corsOptions(allowedOrigins: string[] = []): CORSOptions {
  return {
    origin: allowedOrigins.length ? allowedOrigins : ['*'],
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    credentials: false,
    exposedHeaders: [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'RateLimit',
      'RateLimit-Policy',
      'ETag',
      'Deprecation',
      'Sunset',
      'Link',
    ],
    maxAge: 600,
  };
}
