import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { ApiError } from '../errors/api-error.js';
import { getSchema } from './schema.js';
import { requestScope, type RequestContext } from '../http/context.js';
import { toApiError, errorExtensions } from '../errors/translate.js';
import type { Logger } from '../logging/logger.js';
import { useRequestBounds } from './complexity.js';
import { useOneLeadPerRequest } from '../inquiries/one-lead-per-request.js';
import { useStorableText } from './storable-text.js';
import { useDeprecationNotice } from '../http/deprecation.js';

/** What the HTTP layer hands Yoga for each request: the per-request context both surfaces share. */
export type YogaServerContext = RequestContext;

/**
 * GraphQL errors carry the catalogue's facts in extensions. This is one of the two places errors are translated
 * (the other is the REST envelope writer); unexpected errors are logged here with the request id and masked.
 */
export function formatGraphQLError(error: unknown, baseUrl: string, log: Logger): GraphQLError {
  const scope = requestScope.getStore();
  const requestId = scope?.requestId ?? 'unknown';
  const graphqlError = error instanceof GraphQLError ? error : null;
  const original = graphqlError ? graphqlError.originalError : error;
  if (graphqlError && (!original || original instanceof GraphQLError)) {
    // A variable GraphQL could not coerce (missing, wrong type) is a parameter error like REST's: the error's node is
    // the variable's definition, so its name is read from the document, not from the message.
    const variable = graphqlError.nodes?.[0]?.kind === Kind.VARIABLE_DEFINITION ? graphqlError.nodes[0].variable.name.value : null;
    if (variable) {
      const refusal = new ApiError('invalid_parameters', { message: graphqlError.message, param: variable });
      return new GraphQLError(graphqlError.message, {
        nodes: graphqlError.nodes,
        source: graphqlError.source,
        positions: graphqlError.positions,
        extensions: { ...errorExtensions(refusal, requestId, baseUrl), http: { status: 400 } },
      });
    }
  }
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
    // A field's failure never changes the HTTP status: the response is 200 with the other fields' data, and the
    // error says what failed (code, status, and for limits the seconds to wait). Field-level limits (venue detail
    // lookups, inquiries) behave as GitHub's and Shopify's GraphQL rate limits do. Request-level refusals (the read
    // limit, authentication) are answered before execution with their own status (app.ts).
    extensions: {
      ...errorExtensions(apiError, requestId, baseUrl),
      ...(apiError.headers?.['Retry-After'] ? { retryAfter: Number(apiError.headers['Retry-After']) } : {}),
    },
  });
}

/** Names the request for the metrics by its operation: the client's operation name, or "anonymous". */
function useOperationName(): Plugin {
  return {
    onExecute({ args }) {
      const scope = requestScope.getStore();
      if (!scope) return;
      const document = args.document as DocumentNode;
      const operation = document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!args.operationName || d.name?.value === args.operationName),
      );
      scope.route = operation?.name?.value ?? 'anonymous';
    },
  };
}

export function createGraphQLServer(options: { baseUrl: string; log: Logger; plugins?: Plugin[] }): YogaServerInstance<YogaServerContext, object> {
  return createYoga<YogaServerContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    // GraphiQL (with the explorer) is the service's own page: src/developers/graphiql.page.ts.
    graphiql: false,
    maskedErrors: { maskError: (error) => formatGraphQLError(error, options.baseUrl, options.log) },
    plugins: [
      useRequestBounds(),
      useOneLeadPerRequest({ baseUrl: options.baseUrl }),
      useStorableText({ baseUrl: options.baseUrl }),
      useDeprecationNotice(),
      useOperationName(),
      ...(options.plugins ?? []),
    ],
  });
}
