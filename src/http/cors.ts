import { getCORSHeadersByRequestAndOptions, type CORSOptions } from '@whatwg-node/server';
import { Answer } from './answer.js';
import type { HeaderReader } from '../graphql/context.js';

/**
 * Browsers call the API from couples' web apps. CORS follows @whatwg-node/server's useCORS rules (the implementation
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

/** CORS as the service answers it: preflights, and the headers every other response gets. */
export interface ApiCors {
  /** The answer to any OPTIONS request: 204 with no body and the CORS headers the request earns. */
  preflight: (request: { headers: HeaderReader }) => Answer;
  /** Adds the CORS headers the request earns to its response, and Origin to its Vary. */
  apply: (request: { headers: HeaderReader }, response: { headers: Pick<Headers, 'get' | 'set'> }) => void;
}

/**
 * useCORS's rules (getCORSHeadersByRequestAndOptions), applied by the handler itself rather than as an adapter plugin:
 * a plugin makes @whatwg-node/server wrap every request in its hook chain and parse its URL once more, a large share
 * of /healthz's CPU (docs/performance.md, Levers). Two corrections, so that responses stay right in shared caches
 * (the pages are `public`):
 * - An origin CORS_ORIGINS does not name gets no CORS headers at all (the browser then refuses, preflight included).
 *   useCORS would answer `Access-Control-Allow-Origin: null`, which a sandboxed iframe or a data: page (whose Origin
 *   is `null`) matches, and with a one-origin list it would name that origin to any caller.
 * - `Vary` keeps what the response already varied on (Accept-Encoding from compression): useCORS replaces it. Every
 *   response varies on Origin, even one without CORS headers, since another origin's request gets different ones.
 */
export function createApiCors(allowedOrigins: string[] = []): ApiCors {
  const options = corsOptions(allowedOrigins);
  const apply: ApiCors['apply'] = (request, response) => {
    const origin = request.headers.get('origin');
    const refused = origin === null || (allowedOrigins.length > 0 && !allowedOrigins.includes(origin));
    const headers = refused ? null : getCORSHeadersByRequestAndOptions(request as Request, options); // it reads the request's headers alone
    const vary = response.headers.get('vary');
    if (headers) for (const name in headers) if (name !== 'Vary') response.headers.set(name, headers[name]);
    response.headers.set('vary', varyNames(vary, headers?.Vary));
  };
  return {
    apply,
    preflight(request) {
      // Safari waits for a body on a 204 without Content-Length: 0 (as useCORS answers).
      const answer = new Answer(204, [['content-length', '0']], null);
      apply(request, answer);
      return answer;
    },
  };
}

/**
 * A response's Vary without CORS headers, by the Vary it had: the few values the service's own responses carry
 * ('Accept-Encoding', 'Accept'), so it stays small; worked out once each instead of on every response.
 */
const varyWithOrigin = new Map<string | null, string>();

/** The names of both Vary values and Origin, each once (case-insensitively), in the order first named. */
function varyNames(before: string | null, cors: string | undefined): string {
  if (cors !== undefined) return namesOnce(before, cors);
  let vary = varyWithOrigin.get(before);
  if (vary === undefined) varyWithOrigin.set(before, (vary = namesOnce(before, undefined)));
  return vary;
}

function namesOnce(before: string | null, cors: string | undefined): string {
  const unique = new Map<string, string>();
  for (const value of [before, cors, 'Origin'])
    for (const part of (value ?? '').split(',')) {
      const name = part.trim();
      if (name) unique.set(name.toLowerCase(), name);
    }
  return [...unique.values()].join(', ');
}
