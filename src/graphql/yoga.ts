import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { getSchema } from './schema.js';
import { requestScope, type RequestContext } from '../http/context.js';
import { toApiError, errorExtensions } from '../errors/translate.js';
import type { Logger } from '../logging/logger.js';
import { useRequestBounds } from './complexity.js';

/** What the HTTP layer hands Yoga for each request: the per-request context both surfaces share. */
export type YogaServerContext = RequestContext;

const EXAMPLE_QUERY = `# Set the header below: {"Authorization": "Bearer <your API key>"}
query SearchVenues {
  venues(state: "california", first: 5) {
    totalCount
    nodes { slug name city pricing { currency startingTotal { amount nights } } photos { url } }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/**
 * GraphQL errors carry the catalogue's facts in extensions. This is one of the two places errors are translated
 * (the other is the REST envelope writer); unexpected errors are logged here with the request id and masked.
 */
export function formatGraphQLError(error: unknown, baseUrl: string, log: Logger): GraphQLError {
  const scope = requestScope.getStore();
  const requestId = scope?.requestId ?? 'unknown';
  const graphqlError = error instanceof GraphQLError ? error : null;
  const original = graphqlError ? graphqlError.originalError : error;
  if (graphqlError && !original) {
    // Syntax and validation errors describe the caller's document; they are safe to return as they are.
    return new GraphQLError(graphqlError.message, {
      nodes: graphqlError.nodes,
      source: graphqlError.source,
      positions: graphqlError.positions,
      path: graphqlError.path,
      extensions: { ...graphqlError.extensions, requestId },
    });
  }
  if (original instanceof GraphQLError) return formatGraphQLError(original, baseUrl, log);
  const { error: apiError, unexpected } = toApiError(original);
  if (unexpected) (scope?.log ?? log).error({ err: original, requestId }, 'unexpected error in a GraphQL operation');
  return new GraphQLError(apiError.message, {
    nodes: graphqlError?.nodes,
    path: graphqlError?.path,
    extensions: {
      ...errorExtensions(apiError, requestId, baseUrl),
      // Rate limits answer with their HTTP status and headers (429 + Retry-After) on /graphql too.
      ...(apiError.status === 429 || apiError.status === 503 ? { http: { status: apiError.status, headers: apiError.headers ?? {} } } : {}),
    },
  });
}

export function createGraphQLServer(options: { baseUrl: string; log: Logger; plugins?: Plugin[] }): YogaServerInstance<YogaServerContext, object> {
  return createYoga<YogaServerContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    // Analysts use GraphiQL; assets are inlined from the package (no CDN is reachable from these machines).
    graphiql: { title: 'Wedding Discovery API — GraphiQL', defaultQuery: EXAMPLE_QUERY, headers: JSON.stringify({ Authorization: 'Bearer wv_live_…' }) },
    renderGraphiQL,
    maskedErrors: { maskError: (error) => formatGraphQLError(error, options.baseUrl, options.log) },
    plugins: [useRequestBounds(), ...(options.plugins ?? [])],
  });
}
