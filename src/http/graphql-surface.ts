import { assertGraphQLGetParams, assertUncompressed } from './body.js';
import type { RequestContext } from '../graphql/context.js';
import type { RequestContexts } from './context.js';
import { isIntrospectionOnly } from '../graphql/introspection-only.js';
import { Answer } from './answer.js';
import type { HttpSurface, Visit } from './ingress.js';
import { translate } from '../errors/translate.js';
import { graphqlErrorAnswer, withGraphQLErrorBody } from './graphql-error-response.js';
import type { GraphQLServer, RequestView } from '../graphql/yoga.js';
import { plainPostOf } from '../graphql/plain-post.js';
import { answerOfYoga } from './responses.js';
import { utf8Bytes } from './utf8.js';

/**
 * /graphql: GraphiQL for a browser's GET, Yoga for everything else (src/graphql/yoga.ts). A plain POST
 * (src/graphql/plain-post.ts) answered without errors is its JSON's bytes; anything else is Yoga's Response.
 *
 * GraphiQL loads the schema before the analyst has pasted a key (its header template still holds the placeholder):
 * an operation that only introspects (__schema, __type, __typename) answers keyless, on the client IP's keyless
 * budget (§8.4), and a key sent with it is not looked at. Anything else needs a key.
 */
export function createGraphQLSurface(options: {
  yoga: GraphQLServer;
  baseUrl: string;
  maxBodyBytes: number;
  contexts: RequestContexts;
  /** The GraphiQL page (src/developers/developers.http.ts). */
  graphiql: () => Answer;
}): HttpSurface {
  const { yoga, baseUrl, contexts } = options;
  const contextFor = ({ search, headers, scope, admission, ip }: Visit, body: Uint8Array | undefined) =>
    contexts.contextFor(
      isIntrospectionOnly(search, body)
        ? { caller: 'keyless', surface: 'graphql', scope, admission, ip }
        : { caller: 'key', surface: 'graphql', scope, admission, ip, headers },
    );

  async function execute(visit: Visit, context: RequestContext, body: Uint8Array<ArrayBuffer> | undefined): Promise<Answer> {
    const plain = body && plainPostOf(visit, body);
    if (!plain) return answerOfYoga(await yoga.fetch(visit.request, context, body));
    const view: RequestView = { method: visit.method, url: visit.href, headers: visit.headers };
    const answer = await yoga.plainPost(plain, view, context, body, () => visit.request);
    // Yoga keeps its JSON as text: encoded to bytes once here, not again by the socket write.
    if (typeof answer !== 'string') return answerOfYoga(answer);
    return new Answer(200, [['content-type', `${plain.mediaType}; charset=utf-8`]], utf8Bytes(answer));
  }

  return {
    accepts: (path) => path === '/graphql',
    async serve(visit) {
      const { method, headers, scope, admission, ip } = visit;
      const accept = headers.get('accept');
      // The GraphiQL page opens without a key; the analyst sets the header inside it.
      const wantsPage = method === 'GET' && (accept ?? '').includes('text/html');
      try {
        if (wantsPage) {
          await contexts.admitKeyless(admission, ip);
          return options.graphiql();
        }
        if (method === 'GET') assertGraphQLGetParams(visit.search);
        if (method === 'POST') assertUncompressed(headers);
        const body = method === 'POST' ? await visit.body(options.maxBodyBytes) : undefined;
        const context = await contextFor(visit, body);
        const answer = await execute(visit, context, body);
        return withGraphQLErrorBody(answer, scope.requestId, baseUrl, accept);
      } catch (e) {
        return graphqlErrorAnswer(translate(e, scope.log, scope.requestId, visit.signal), scope.requestId, baseUrl, accept);
      }
    },
  };
}
