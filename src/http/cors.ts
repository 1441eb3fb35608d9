import { useCORS, type CORSOptions, type ServerAdapterPlugin } from '@whatwg-node/server';

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

/**
 * useCORS with two corrections, so that responses stay right in shared caches (the pages are `public`):
 * - An origin CORS_ORIGINS does not name gets no CORS headers at all (the browser then refuses, preflight included).
 *   useCORS would answer `Access-Control-Allow-Origin: null`, which a sandboxed iframe or a data: page (whose Origin
 *   is `null`) matches, and with a one-origin list it would name that origin to any caller.
 * - `Vary` keeps what the response already varied on (Accept-Encoding from compression): useCORS replaces it. Every
 *   response varies on Origin, even one without CORS headers, since another origin's request gets different ones.
 */
export function useApiCors(allowedOrigins: string[] = []): ServerAdapterPlugin {
  const options = corsOptions(allowedOrigins);
  const cors = useCORS((request: Request) => {
    const origin = request.headers.get('origin');
    return allowedOrigins.length && origin !== null && !allowedOrigins.includes(origin) ? false : options;
  });
  return {
    onRequest: cors.onRequest,
    async onResponse(payload) {
      const before = payload.response.headers.get('vary');
      await cors.onResponse?.(payload);
      const names = [before, payload.response.headers.get('vary'), 'Origin'].flatMap((v) => (v ?? '').split(','));
      const unique = new Map(
        names
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => [n.toLowerCase(), n]),
      );
      payload.response.headers.set('vary', [...unique.values()].join(', '));
    },
  };
}
