import { assertGraphQLGetParams, assertUncompressed, readBody } from './body.js';
import type { HeaderReader, RequestContext, RequestScope } from '../graphql/context.js';
import type { Admission, RequestContexts } from './context.js';
import { isIntrospectionOnly } from '../graphql/introspection-only.js';
import type { HttpSurface } from './ingress.js';
import { translate } from '../errors/translate.js';
import { graphqlErrorResponse, withGraphQLErrorBody } from './graphql-error-response.js';
import type { GraphQLServer, RequestView } from '../graphql/yoga.js';
import { plainPostOf } from '../graphql/plain-post.js';
import { Response } from './fetch-api.js';
import { withJsonBytes } from './responses.js';
import { utf8Bytes } from './utf8.js';

/**
 * A plain POST's answer without errors (src/graphql/plain-post.ts): its JSON as UTF-8 bytes, for one write. A class,
 * told apart by instanceof: a Fetch Response of whatwg-node has `bytes` and `contentType` members of its own.
 */
export class PlainAnswer {
  constructor(
    readonly bytes: Buffer<ArrayBuffer>,
    readonly contentType: string,
  ) {}
}

/** The /graphql surface, and what its POST lane (src/app-lanes.ts) shares of it. */
export interface GraphQLSurface extends HttpSurface {
  /**
   * GraphiQL loads the schema before the analyst has pasted a key (its header template still holds the placeholder):
   * an operation that only introspects (__schema, __type, __typename) answers keyless, on the client IP's keyless
   * budget (§8.4), and a key sent with it is not looked at. Anything else needs a key.
   */
  contextFor(search: Pick<URLSearchParams, 'get'>, body: Uint8Array | undefined, headers: HeaderReader, entry: Entry): Promise<RequestContext>;
  /**
   * Yoga's answer to a request whose context is built: a plain POST's answer without errors as its bytes, else a
   * Response whose JSON is UTF-8 bytes. `fetchRequest` makes the Fetch Request only when Yoga's whole pipeline needs it.
   */
  execute(
    request: RequestView,
    context: RequestContext,
    body: Uint8Array<ArrayBuffer> | undefined,
    fetchRequest: () => Request,
  ): Promise<PlainAnswer | Response>;
  /** Yoga's answer with its errors in the catalogue's words. */
  answered(answer: Response, requestId: string, accept: string | null): Promise<Response>;
  /** What a request that threw answers: the GraphQL error body, in the media type Accept asks for. */
  failed(e: unknown, scope: RequestScope, accept: string | null, signal?: { aborted: boolean }): Response;
}

type Entry = { scope: RequestScope; admission: Admission; ip: string };

/** /graphql: GraphiQL for a browser's GET, Yoga for everything else (src/graphql/yoga.ts). */
export function createGraphQLSurface(options: {
  yoga: GraphQLServer;
  baseUrl: string;
  maxBodyBytes: number;
  contexts: RequestContexts;
  /** The GraphiQL page (src/developers/developers.http.ts). */
  graphiql: () => Response;
}): GraphQLSurface {
  const { yoga, baseUrl, contexts } = options;
  const surface: GraphQLSurface = {
    accepts: (path) => path === '/graphql',
    async serve({ request, url, scope, admission, ip }) {
      // The GraphiQL page opens without a key; the analyst sets the header inside it.
      const wantsPage = request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
      try {
        if (wantsPage) {
          await contexts.admitKeyless(admission, ip);
          return options.graphiql();
        }
        if (request.method === 'GET') assertGraphQLGetParams(url.searchParams);
        if (request.method === 'POST') assertUncompressed(request.headers);
        const body = request.method === 'POST' ? await readBody(request, options.maxBodyBytes) : undefined;
        const context = await surface.contextFor(url.searchParams, body, request.headers, { scope, admission, ip });
        const answer = await surface.execute(request, context, body, () => request);
        const response = answer instanceof PlainAnswer ? new Response(answer.bytes, { headers: { 'content-type': answer.contentType } }) : answer;
        return await surface.answered(response, scope.requestId, request.headers.get('accept'));
      } catch (e) {
        return surface.failed(e, scope, request.headers.get('accept'), request.signal);
      }
    },
    contextFor: (search, body, headers, { scope, admission, ip }) =>
      contexts.contextFor(
        isIntrospectionOnly(search, body)
          ? { caller: 'keyless', surface: 'graphql', scope, admission, ip }
          : { caller: 'key', surface: 'graphql', scope, admission, ip, headers },
      ),
    async execute(request, context, body, fetchRequest) {
      const plain = body && plainPostOf(request, body);
      if (!plain) return withJsonBytes(await yoga.fetch(fetchRequest(), context, body));
      const answer = await yoga.plainPost(plain, request, context, body, fetchRequest);
      // Yoga keeps its JSON as text: encoded to bytes once here, not again by the socket write.
      return typeof answer === 'string' ? new PlainAnswer(utf8Bytes(answer), `${plain.mediaType}; charset=utf-8`) : withJsonBytes(answer);
    },
    answered: (answer, requestId, accept) => withGraphQLErrorBody(answer, requestId, baseUrl, accept),
    failed: (e, scope, accept, signal) => graphqlErrorResponse(translate(e, scope.log, scope.requestId, signal), scope.requestId, baseUrl, accept),
  };
  return surface;
}
