import type { HeaderReader, RequestScope } from '../graphql/context.js';
import type { Admission } from './context.js';
import type { Answer } from './answer.js';
import { applyCaching, applyCompression } from './conventions.js';
import type { ApiCors } from './cors.js';

/**
 * The ordered steps every answer passes after its surface has served it (src/http/ingress.ts): each concern is written
 * once, here, on the one form every answer takes (src/http/answer.ts).
 */

/** One request as the steps read it: what the client sent, and what serving it left in its scope and admission. */
export interface Exchange {
  /** The method as sent (HEAD included). */
  method: string;
  headers: HeaderReader;
  path: string;
  scope: RequestScope;
  admission: Admission;
  /** performance.now() when the request came in. */
  started: number;
}

/** One concern applied to every answer: it changes the answer's headers, status or body; a promise only when it waits. */
export interface AnswerStep {
  name: string;
  apply(exchange: Exchange, answer: Answer): Promise<void> | void;
}

const API_PREFIX = '/api/v1';

/**
 * §8.10: a successful GET of the catalogue (REST routes, GraphQL) is cacheable; a GraphQL answer with field errors
 * (a venue not found, a refused lookup) is HTTP 200 but not a catalogue read to keep for 5 minutes, and neither is
 * GraphiQL's page.
 */
function cacheable({ method, path, scope }: Exchange, answer: Answer): boolean {
  const read = method === 'GET' || method === 'HEAD';
  const catalogue = (path.startsWith(`${API_PREFIX}/`) && path !== `${API_PREFIX}/openapi.json`) || path === '/graphql';
  return read && catalogue && !scope.answeredWithErrors && !(answer.headers.get('content-type') ?? '').startsWith('text/html');
}

/**
 * A public page or photo that answers conditional GETs itself (src/site/site.http.ts): a 200 or 304 naming its own
 * ETag with `public` caching, which this step never sets, keeps its validators and Cache-Control as they are.
 */
function ownValidators({ status, headers }: Answer): boolean {
  return (headers.get('cache-control') ?? '').startsWith('public') && (status === 200 || status === 304) && headers.has('etag');
}

/** The limiter's headers every response carries (§8.3); a refusal's 429 has Retry-After from its error already. */
function limiterHeaders(admission: Admission): Array<[string, string]> {
  return Object.entries(admission.decision?.headers ?? {}).filter(([name]) => name !== 'Retry-After');
}

/**
 * In order: deprecation headers, conditional GET (ETag, Cache-Control, 304), the response cache's verdict,
 * compression, HEAD, the limiter's headers, the request id, CORS. The request's log line and metrics come after.
 */
export function createAnswerSteps(options: { deprecation: Readonly<Record<string, string>>; cors: ApiCors }): AnswerStep[] {
  const deprecation = Object.entries(options.deprecation);
  return [
    {
      name: 'deprecation',
      apply: ({ scope }, answer) => {
        if (scope.usedDeprecatedFields) for (const [name, value] of deprecation) answer.headers.set(name, value);
      },
    },
    {
      name: 'conditional-get',
      apply: (exchange, answer) => {
        if (!ownValidators(answer))
          applyCaching(answer, exchange.headers.get('if-none-match'), exchange.scope.requestId, cacheable(exchange, answer));
      },
    },
    {
      name: 'response-cache',
      apply: ({ scope }, answer) => {
        if (!scope.cache || (answer.status !== 200 && answer.status !== 304)) return;
        answer.headers.set('x-cache', scope.cache.outcome);
        if (scope.cache.ageSeconds !== undefined) answer.headers.set('age', String(scope.cache.ageSeconds));
      },
    },
    // A HEAD is answered as its GET, compressed alike, then without the body.
    { name: 'compression', apply: ({ headers }, answer) => applyCompression(headers.get('accept-encoding'), answer) },
    {
      name: 'head',
      apply: ({ method }, answer) => {
        // Content-Length stays the GET's (RFC 9110 §9.3.2).
        if (method === 'HEAD') answer.body = null;
      },
    },
    {
      name: 'limiter',
      // A request admitted by the read limit stays counted whatever happens after (a venue-detail or inquiry limit
      // inside it, an error): only a request the read limit itself refused uses no allowance.
      apply: ({ admission }, answer) => {
        for (const [name, value] of limiterHeaders(admission)) answer.headers.set(name, value);
      },
    },
    { name: 'request-id', apply: ({ scope }, answer) => answer.headers.set('x-request-id', scope.requestId) },
    { name: 'cors', apply: (exchange, answer) => options.cors.apply(exchange, answer) },
  ];
}
