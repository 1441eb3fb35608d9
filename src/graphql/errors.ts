import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { argumentsOf } from './refused-argument.js';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import { docUrl } from '../errors/catalogue.js';
import { classify, markClassified } from '../errors/classify.js';
import type { RequestContext, RequestScope } from './context.js';
import type { Logger } from '../logging/logger.js';

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

/** Where a GraphQL error points and how Yoga answers it, kept by its rendering. */
interface GraphQLErrorPlace {
  nodes?: GraphQLError['nodes'];
  source?: GraphQLError['source'];
  positions?: GraphQLError['positions'];
  path?: GraphQLError['path'];
  /** Yoga's `extensions.http` (status, headers), which Yoga reads and removes from the response. */
  http?: unknown;
}

/**
 * The GraphQL surface's one renderer: a classified error's catalogue facts as GraphQL `extensions` (a bound's details,
 * code, type, status, param, hint, requestId, docUrl; retryAfter, the seconds to wait, when no Retry-After header goes
 * with it; Yoga's `http` when given). renderGraphQLError locates it on a GraphQL error; graphqlErrorAnswer
 * (src/http/graphql-error-response.ts) carries it as it is, for a request refused before Yoga.
 */
export function graphqlErrorExtensions(
  refusal: ApiError,
  requestId: string,
  baseUrl: string,
  options: { http?: unknown; headersSent?: boolean } = {},
): Record<string, unknown> {
  const retryAfter = options.headersSent ? undefined : refusal.headers?.['Retry-After'];
  return {
    ...refusal.details,
    code: refusal.code,
    type: refusal.type,
    status: refusal.status,
    ...(refusal.param ? { param: refusal.param } : {}),
    ...(refusal.hint ? { hint: refusal.hint } : {}),
    requestId,
    docUrl: docUrl(baseUrl, refusal.code),
    ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}),
    ...(options.http ? { http: options.http } : {}),
  };
}

/** A classified error as the GraphQL error a client reads, located where graphql-js located the error it answers. */
function renderGraphQLError(refusal: ApiError, requestId: string, baseUrl: string, place: GraphQLErrorPlace = {}): GraphQLError {
  const rendered = new GraphQLError(refusal.message, {
    nodes: place.nodes,
    source: place.source,
    positions: place.positions,
    path: place.path,
    extensions: graphqlErrorExtensions(refusal, requestId, baseUrl, { http: place.http }),
  });
  // The document cache hands back the errors validation found for a document, already rendered: classified again as
  // the same refusal, with the next request's id.
  markClassified(rendered, refusal);
  return rendered;
}

/** Where `error` points (the outermost error's path, the innermost's nodes when it has none) and its Yoga `http`. */
function placeOf(error: unknown): GraphQLErrorPlace {
  if (!(error instanceof GraphQLError)) return {};
  let innermost = error;
  let http = error.extensions?.http;
  for (let inner = error.originalError; inner instanceof GraphQLError; inner = inner.originalError) {
    innermost = inner;
    http ??= inner.extensions?.http;
  }
  return {
    nodes: error.nodes ?? innermost.nodes,
    source: error.source ?? innermost.source,
    positions: error.positions ?? innermost.positions,
    path: error.path,
    http,
  };
}

/**
 * Every GraphQL error, whatever raised it, classified (src/errors/classify.ts) and rendered (renderGraphQLError) with
 * the request's id; unexpected errors are logged here with the request id and masked. `scope` is the request's (its
 * id, its log, the document it executed); without it the error says requestId "unknown" until it is formatted again
 * with one.
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
  const document = operation.document ?? scope?.document;
  const classified = classify(error, {
    validating: operation.validating,
    arguments: document ? argumentsOf(document, operation.schema ?? scope?.schema) : undefined,
  });
  if (classified.unexpected) (scope?.log ?? log).error({ err: classified.cause, requestId }, 'unexpected error in a GraphQL operation');
  const place = placeOf(error);
  // A field's failure never changes the HTTP status: the response is 200 with the other fields' data, and the error
  // says what failed (code, status, and for limits the seconds to wait). Field-level limits (venue detail lookups,
  // inquiries) behave as GitHub's and Shopify's GraphQL rate limits do. A request-level refusal keeps the HTTP status
  // it was raised with (Yoga reads extensions.http and removes it from the response); one Yoga or a plugin refused
  // whole takes its catalogue code's.
  if (classified.requestLevel) place.http = { status: classified.error.status };
  return renderGraphQLError(classified.error, requestId, baseUrl, place);
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
