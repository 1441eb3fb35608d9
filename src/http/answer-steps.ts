import type { HeaderReader, RequestScope } from '../graphql/context.js';
import type { Admission } from './context.js';
import { asHead, cachingHeaders, compressionHeaders, withCaching, withCompression, type AnswerHead } from './conventions.js';
import type { ApiCors } from './cors.js';

/**
 * The ordered steps every answer passes after its surface has served it (src/http/ingress.ts), whether it is written
 * as bytes with one writeHead or as a Response: each concern is written once, here.
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

/**
 * One concern applied to every answer. `head` changes the headers of an answer whose body it leaves as it is (false
 * when it would have to read or replace the body). `answer`, on an answer finished as a Response, may read or replace
 * the body; a step without it runs its `head` there too.
 */
export interface AnswerStep {
  name: string;
  head(exchange: Exchange, answer: AnswerHead, byteLength: number): boolean | void;
  answer?(exchange: Exchange, request: Request, response: Response): Promise<Response>;
}

const API_PREFIX = '/api/v1';

/**
 * §8.10: a successful GET of the catalogue (REST routes, GraphQL) is cacheable; a GraphQL answer with field errors
 * (a venue not found, a refused lookup) is HTTP 200 but not a catalogue read to keep for 5 minutes, and neither is
 * GraphiQL's page.
 */
function cacheable({ method, path, scope }: Exchange, answer: AnswerHead): boolean {
  const read = method === 'GET' || method === 'HEAD';
  const catalogue = (path.startsWith(`${API_PREFIX}/`) && path !== `${API_PREFIX}/openapi.json`) || path === '/graphql';
  return read && catalogue && !scope.answeredWithErrors && !(answer.headers.get('content-type') ?? '').startsWith('text/html');
}

/**
 * A public page or photo that answers conditional GETs itself (src/site/site.http.ts): a 200 or 304 naming its own
 * ETag with `public` caching, which this step never sets, keeps its validators and Cache-Control as they are.
 */
function ownValidators({ status, headers }: AnswerHead): boolean {
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
      head: ({ scope }, answer) => {
        if (scope.usedDeprecatedFields) for (const [name, value] of deprecation) answer.headers.set(name, value);
      },
    },
    {
      name: 'conditional-get',
      head: (exchange, answer) => ownValidators(answer) || cachingHeaders(answer, cacheable(exchange, answer), exchange.headers.get('if-none-match')),
      answer: async (exchange, request, response) =>
        ownValidators(response) ? response : withCaching(request, response, exchange.scope.requestId, cacheable(exchange, response)),
    },
    {
      name: 'response-cache',
      head: ({ scope }, answer) => {
        if (!scope.cache || (answer.status !== 200 && answer.status !== 304)) return;
        answer.headers.set('x-cache', scope.cache.outcome);
        if (scope.cache.ageSeconds !== undefined) answer.headers.set('age', String(scope.cache.ageSeconds));
      },
    },
    {
      name: 'compression',
      head: (exchange, answer, byteLength) => compressionHeaders(exchange, answer, byteLength),
      answer: (_exchange, request, response) => withCompression(request, response),
    },
    {
      name: 'head',
      head: ({ method }) => method !== 'HEAD',
      answer: async ({ method }, _request, response) => (method === 'HEAD' ? asHead(response) : response),
    },
    {
      name: 'limiter',
      // A request admitted by the read limit stays counted whatever happens after (a venue-detail or inquiry limit
      // inside it, an error): only a request the read limit itself refused uses no allowance.
      head: ({ admission }, answer) => {
        for (const [name, value] of limiterHeaders(admission)) answer.headers.set(name, value);
      },
    },
    { name: 'request-id', head: ({ scope }, answer) => answer.headers.set('x-request-id', scope.requestId) },
    { name: 'cors', head: (exchange, answer) => options.cors.apply(exchange, answer) },
  ];
}

/**
 * An answer's headers kept in order as node's writeHead takes them (names in lower case), for an answer the ingress writes
 * as bytes: the same steps set them as they set a Fetch Response's.
 */
export class HeadList implements AnswerHead {
  readonly headers = this;
  private readonly values = new Map<string, string>();

  constructor(
    readonly status: number,
    first: Array<[string, string]>,
  ) {
    for (const [name, value] of first) this.values.set(name, value);
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value);
  }
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
  delete(name: string): void {
    this.values.delete(name.toLowerCase());
  }
  append(name: string, value: string): void {
    const before = this.get(name);
    this.set(name, before === null ? value : `${before}, ${value}`);
  }
  /** As writeHead takes them: name, value, name, value, … */
  flat(): string[] {
    const flat: string[] = [];
    for (const [name, value] of this.values) flat.push(name, value);
    return flat;
  }
}
