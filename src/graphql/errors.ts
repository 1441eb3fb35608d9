import { GraphQLError, Kind, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { argumentFedBy, argumentHolding, argumentRefusal } from './refused-argument.js';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import { toApiError, errorExtensions } from '../errors/translate.js';
import type { RequestContext, RequestScope } from '../http/context.js';
import type { Logger } from '../logging/logger.js';

/**
 * The variable a graphql-js coercion error is about (missing, wrong type): its node is the variable's definition,
 * so the name is read from the document, never from the message's wording.
 */
export function refusedVariable(error: GraphQLError): string | null {
  const node = error.nodes?.[0];
  return node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : null;
}

/**
 * A refusal of ours raised inside graphql-js's own phases (a validation rule, a bound checked before execution): the
 * ApiError travels as the original error, so the formatter gives it the catalogue's facts like any other.
 * `requestLevel` makes the HTTP status the error's own (400), since nothing ran.
 */
export function refusalError(refusal: ApiError, options: { nodes?: GraphQLError['nodes']; requestLevel?: boolean } = {}): GraphQLError {
  return new GraphQLError(refusal.message, {
    nodes: options.nodes,
    originalError: refusal,
    extensions: options.requestLevel ? { http: { status: refusal.status } } : undefined,
  });
}

/**
 * The refusals of @graphql-yoga/plugin-persisted-operations (src/graphql/persisted-operations.ts), by the extensions
 * code the plugin gives them (its messages are bare class names): each is a catalogue code, and a request-level
 * refusal answered with that code's HTTP status, since nothing ran.
 */
const PERSISTED_OPERATION_REFUSALS = new Map<unknown, () => ApiError>([
  ['PERSISTED_QUERY_NOT_IN_LIST', () => new ApiError('persisted_query_not_found')],
  ['CANNOT_SEND_PQ_ID_AND_BODY', () => new ApiError('persisted_query_only')],
  // Neither a document nor a hash: the request Yoga itself refuses as "Must provide query string" without the plugin.
  [
    'PERSISTED_QUERY_ID_REQUIRED',
    () =>
      new ApiError('invalid_graphql_request', {
        message: 'Must provide query string, or a persisted operation hash in extensions.persistedQuery.sha256Hash.',
      }),
  ],
]);

/**
 * What graphql-js or Yoga itself refused (no original error), as a catalogue error: a variable GraphQL could not
 * coerce, a document that does not parse or validate, a request Yoga cannot read. Their messages describe the caller's
 * own request and are kept.
 */
function catalogueErrorOf(error: GraphQLError, document?: DocumentNode, schema?: GraphQLSchema): ApiError {
  // A value written in the document that its argument's type cannot take (an Int past 32 bits, a string for an Int,
  // a name outside an enum), or an argument the field does not have, is a parameter error, as the same mistake in a
  // variable or a REST parameter is.
  const argument = document && error.nodes?.[0] ? argumentHolding(document, error.nodes[0], schema) : null;
  if (argument) return argumentRefusal(argument, error.message, argument.name);
  const message = error.message;
  const persisted = PERSISTED_OPERATION_REFUSALS.get(error.extensions?.code);
  if (persisted) return persisted();
  switch (error.extensions?.code) {
    case 'GRAPHQL_PARSE_FAILED':
      return new ApiError('graphql_parse_failed', { message });
    case 'BAD_REQUEST':
      return (error.extensions.http as { status?: number } | undefined)?.status === 405
        ? new ApiError('method_not_allowed', { message })
        : new ApiError('invalid_graphql_request', { message });
    case 'OPERATION_RESOLUTION_FAILURE':
      return new ApiError('invalid_graphql_request', { message, param: 'operationName' });
    default:
      return new ApiError(message.startsWith('Syntax Error') ? 'graphql_parse_failed' : 'graphql_validation_failed', { message });
  }
}

/** The catalogue error a formatted GraphQL error was made from. */
const REFUSAL = Symbol('refusal');

/**
 * Every GraphQL error, whatever raised it, leaves with the catalogue's facts in extensions (code, type, status,
 * requestId, docUrl). This is one of the two places errors are translated (the other is the REST envelope writer);
 * unexpected errors are logged here with the request id and masked. `scope` is the request's (its id, its log, the
 * document it executed); without it the error says requestId "unknown" until it is formatted again with one.
 */
export function formatGraphQLError(
  error: unknown,
  baseUrl: string,
  log: Logger,
  operation: { document?: DocumentNode; schema?: GraphQLSchema; validating?: boolean } = {},
  scope?: RequestScope,
): GraphQLError {
  const requestId = scope?.requestId ?? 'unknown';
  if (scope) scope.answeredWithErrors = true;
  const graphqlError = error instanceof GraphQLError ? error : null;
  // graphql-js wraps what a resolver throws (a GraphQLError of ours included) in a located error: the innermost
  // GraphQLError says what happened, the outermost where.
  let innermost = graphqlError;
  let http = graphqlError?.extensions?.http;
  let original: unknown = graphqlError ? graphqlError.originalError : error;
  while (original instanceof GraphQLError) {
    innermost = original;
    http ??= original.extensions?.http;
    original = original.originalError;
  }
  let refusal: ApiError;
  const formattedBefore = (innermost as { [REFUSAL]?: ApiError } | null)?.[REFUSAL];
  const variable = graphqlError && !operation.validating ? refusedVariable(graphqlError) : null;
  if (formattedBefore) {
    // The document cache hands back the errors validation found for this document, already formatted: same refusal,
    // this request's id.
    refusal = formattedBefore;
  } else if (variable) {
    // A variable GraphQL could not coerce: graphql-tools wraps the scalar's or enum's own error (its original) in one
    // whose node is the variable's definition and whose message names the variable.
    const document = operation.document ?? scope?.document;
    const argument = document ? argumentFedBy(document, variable, operation.schema ?? scope?.schema) : null;
    refusal = argumentRefusal(argument, graphqlError?.message ?? '', variable);
  } else if (innermost && !original) {
    refusal = catalogueErrorOf(innermost, operation.document ?? scope?.document, operation.schema ?? scope?.schema);
    // A request Yoga could not read at all (bad JSON, no body) is 400 whatever the Accept: GraphQL-over-HTTP's 200
    // for application/json is for documents that were read and then failed, which the `spec` flag asks for.
    if (innermost.extensions?.code === 'BAD_REQUEST' && http) http = { status: refusal.status };
    else if (PERSISTED_OPERATION_REFUSALS.has(innermost.extensions?.code)) http = { status: refusal.status };
  } else {
    const { error: apiError, unexpected } = toApiError(original);
    if (unexpected) (scope?.log ?? log).error({ err: original, requestId }, 'unexpected error in a GraphQL operation');
    refusal = apiError;
  }
  // A field's failure never changes the HTTP status: the response is 200 with the other fields' data, and the error
  // says what failed (code, status, and for limits the seconds to wait). Field-level limits (venue detail lookups,
  // inquiries) behave as GitHub's and Shopify's GraphQL rate limits do. A request-level refusal keeps the HTTP status
  // it was raised with (Yoga reads extensions.http and removes it from the response).
  const formatted = new GraphQLError(refusal.message, {
    nodes: graphqlError?.nodes ?? innermost?.nodes,
    source: graphqlError?.source ?? innermost?.source,
    positions: graphqlError?.positions ?? innermost?.positions,
    path: graphqlError?.path,
    extensions: {
      ...errorExtensions(refusal, requestId, baseUrl),
      ...(refusal.headers?.['Retry-After'] ? { retryAfter: Number(refusal.headers['Retry-After']) } : {}),
      ...(http ? { http } : {}),
    },
  });
  // Not an enumerable property: nothing of it reaches the response, and Yoga's status logic does not see an original error.
  Object.defineProperty(formatted, REFUSAL, { value: refusal });
  return formatted;
}

/**
 * Validation errors are formatted where their document and schema are at hand (a document that never executed leaves
 * neither in the request's scope); useCatalogueErrors then gives them the request's id. A closed-set argument given a
 * value outside its enum is invalid_parameters naming the argument (argumentHolding), as it was while it was a String
 * checked by the module's schema.
 */
export function useCatalogueValidationErrors(options: { baseUrl: string; log: Logger }): Plugin {
  return {
    onValidate({ params }) {
      return ({ result, setResult }) => {
        if (result.length)
          setResult(
            result.map((e) =>
              formatGraphQLError(e, options.baseUrl, options.log, { document: params.documentAST, schema: params.schema, validating: true }),
            ),
          );
      };
    },
  };
}

/**
 * Formats every error of a GraphQL result, however it arose (Yoga reading the request, parsing, validation, a plugin's
 * refusal, execution), with the scope of the request it answers, as the last step before the body is written. Yoga's
 * own masking calls its maskError with the error alone: reaching the request from there took an AsyncLocalStorage
 * around every GraphQL request, whose hooks ran on every promise of the process.
 */
export function useCatalogueErrors(options: { baseUrl: string; log: Logger }): Plugin<object, RequestContext> {
  return {
    onResultProcess({ serverContext, result, setResult }) {
      // A stream of results (subscriptions, @defer) is not something this schema serves.
      if (Symbol.asyncIterator in result) return;
      const formatted = withCatalogueErrors(result, serverContext.scope, options);
      if (formatted !== result) setResult(formatted);
    },
  };
}

/**
 * A result (or a batch) with every error in the catalogue's format; the same object when it has none, with nothing
 * allocated for it (most answers). useCatalogueErrors runs it on what Yoga answers, and the plain POST path
 * (src/graphql/yoga.ts) on what it answers itself.
 */
export function withCatalogueErrors<R extends ExecutionResult | ExecutionResult[]>(
  result: R,
  scope: RequestScope | undefined,
  options: { baseUrl: string; log: Logger },
): R {
  const results: ExecutionResult[] = Array.isArray(result) ? result : [result];
  if (!results.some((one) => one.errors?.length)) return result;
  const formatted = results.map((one) =>
    one.errors?.length ? { ...one, errors: one.errors.map((e) => formatGraphQLError(e, options.baseUrl, options.log, {}, scope)) } : one,
  );
  return (Array.isArray(result) ? formatted : formatted[0]) as R;
}
