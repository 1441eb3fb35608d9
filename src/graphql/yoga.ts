import { YogaServer, processRegularResult, type Plugin } from 'graphql-yoga';
import { Kind, type DocumentNode, type ExecutionArgs, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { executeThroughCache, sharedReadOf } from '../cache/response-cache.js';
import { getSchema } from './schema.js';
import type { HeaderReader, RequestContext } from './context.js';
import { useCatalogueErrors, useCatalogueValidationErrors, withCatalogueErrors } from './errors.js';
import type { Logger } from '../logging/logger.js';
import { useRequestBounds } from './complexity.js';
import { useOneLeadPerRequest } from '../inquiries/one-lead-per-request.js';
import { useStorableText } from './storable-text.js';
import { useDeprecationNotice } from './deprecation-notice.js';
import { usePersistedOperationsManifest, type PersistedOperations } from './persisted-operations.js';
import { useJitExecution } from './jit.js';
import { useVenueDetailCharge } from '../limits/venue-details.js';
import { useDocumentCache } from './document-cache.js';
import { useIntrospectionAnswer } from './introspection-answer.js';
import { bodyText, type PlainPost } from './plain-post.js';

/**
 * A query document runs compiled by graphql-jit from its second execution on: a frontend's operations repeat, and a
 * client sending ever new documents pays graphql-js rather than a compilation each.
 */
const JIT_COMPILE_AFTER = 1;

/** What the HTTP layer hands Yoga for each request: the per-request context both surfaces share. */
export type YogaServerContext = RequestContext;

/**
 * Names the request for the metrics by its operation (the client's operation name, or "anonymous") unless its surface
 * named it (a REST route by its path), and keeps the document for errors raised while GraphQL coerces variables,
 * which name only the variable.
 */
function useOperationName(): Plugin<YogaServerContext> {
  return {
    onExecute({ args }) {
      const scope = args.contextValue.scope;
      if (!scope) return;
      const document = args.document as DocumentNode;
      scope.document = document;
      scope.schema = args.schema;
      const operation = document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!args.operationName || d.name?.value === args.operationName),
      );
      scope.route ??= operation?.name?.value ?? 'anonymous';
    },
  };
}

/**
 * Shared catalogue reads go through the response cache, the same one REST routes and assistant tools use. An execution
 * whose surface keeps its own answer (a REST route's rendered body: answerThroughCache has noted it) is not kept again
 * as data.
 */
function useResponseCache(): Plugin<YogaServerContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue as RequestContext;
      if (ctx.answerNotes) return;
      const document = args.document as DocumentNode;
      const operation = ctx.responseCache ? sharedReadOf(document, args.operationName) : null;
      if (!operation) return;
      setExecuteFn((a) => executeThroughCache(ctx, operation, a.variableValues, () => executeFn(a) as Promise<ExecutionResult>));
    },
  };
}

/**
 * Yoga's request parsers read the POST body the HTTP layer has already read (and refused past its size limit): from
 * those bytes, not from a second Request made of them, whose stream and headers whatwg-node built on every request.
 * The parser is still the one Yoga chose for the request's media type, so what it accepts and refuses is Yoga's.
 */
function useBodyAlreadyRead(bodies: WeakMap<Request, Uint8Array<ArrayBuffer>>): Plugin<YogaServerContext> {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      const body = bodies.get(request);
      if (body && requestParser) setRequestParser(() => requestParser(withBody(request, body)));
    },
  };
}

/** What Yoga's parsers read of a POST (method, URL, headers, body as JSON, text or form data), its body from bytes. */
function withBody(request: Request, body: Uint8Array<ArrayBuffer>): Request {
  const text = () => bodyText(body);
  const view: Pick<Request, 'method' | 'url' | 'headers' | 'text' | 'json' | 'formData'> = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    text: async () => text(),
    json: async () => JSON.parse(text()),
    // Only a multipart upload reads form data, which no field of this schema takes: a whole Request for that one.
    formData: () => new Request(request.url, { method: request.method, headers: request.headers, body }).formData(),
  };
  return view as Request;
}

/** What Yoga's execution reads of a request: its method (a mutation must be a POST), URL and headers. */
export type RequestView = Pick<Request, 'method' | 'url'> & { headers: HeaderReader };

/**
 * Yoga over our schema; `fetch` answers one HTTP request with the request context the HTTP layer built for it. Answers
 * are Yoga's: JSON as text, which the HTTP layer encodes (src/http/graphql-surface.ts).
 */
export interface GraphQLServer {
  /** `body`: the POST body the HTTP layer has read from `request`. */
  fetch(request: Request, context: YogaServerContext, body?: Uint8Array<ArrayBuffer>): Promise<Response>;
  /**
   * A plain POST (src/graphql/plain-post.ts): the JSON text of an answer without errors, for the caller to write as
   * `${plain.mediaType}; charset=utf-8`; any other answer as `fetch` gives it, for the Fetch Request `fetchRequest`
   * makes only then.
   */
  plainPost(
    plain: PlainPost,
    request: RequestView,
    context: YogaServerContext,
    body: Uint8Array<ArrayBuffer>,
    fetchRequest: () => Request,
  ): Promise<string | Response>;
  /**
   * A document already parsed and validated (a REST route's, an assistant tool's) run through the execution of the
   * same plugin chain: bounds, storable text, lead rules, the deprecation notice, the operation's name, graphql-jit,
   * venue detail charges and the response cache, as every /graphql document runs after its parsing. A refusal by a
   * plugin is thrown; anything from execution on is in the result.
   */
  execute(args: ExecutionArgs): Promise<ExecutionResult>;
}

/** Long because Yoga's options, its plugin order and the plain POST's path each need their reason beside them. */
export function createGraphQLServer(options: {
  baseUrl: string;
  log: Logger;
  /** Operations clients may send by hash; unset: documents are sent as text only. */
  persistedOperations?: PersistedOperations;
}): GraphQLServer {
  // The POST body the HTTP layer read, by its request, for the parser.
  const bodies = new WeakMap<Request, Uint8Array<ArrayBuffer>>();
  const plugins = [
    // First: it turns a hash into the document every later plugin reads.
    ...(options.persistedOperations ? [usePersistedOperationsManifest(options.persistedOperations)] : []),
    useBodyAlreadyRead(bodies),
    useCatalogueValidationErrors({ baseUrl: options.baseUrl, log: options.log }),
    useCatalogueErrors({ baseUrl: options.baseUrl, log: options.log }),
    useRequestBounds(),
    useOneLeadPerRequest(),
    useStorableText(),
    useDeprecationNotice(),
    useOperationName(),
    // After every plugin that adds a validation rule or a parse option.
    useDocumentCache(),
    // Before the response cache, which wraps the execution it finds (a miss runs compiled).
    useJitExecution({ compileAfter: JIT_COMPILE_AFTER }),
    // Inside the response cache: a miss counts the venues whose details it read; a hit counts them again there.
    useVenueDetailCharge(),
    useIntrospectionAnswer(),
    // Last: every check above runs on a cached answer too.
    useResponseCache(),
  ];
  // The plain POST path falls back to Yoga when getResultForParams throws, which is safe only while nothing can throw
  // after execution: an onExecutionResult hook could (Yoga's own plugins have none in graphql-yoga 5).
  if (plugins.some((plugin) => 'onExecutionResult' in plugin)) throw new Error('a GraphQL plugin with onExecutionResult: see answerPlainPost');
  const yoga = new YogaServer<YogaServerContext, YogaServerContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // CORS is the HTTP layer's, the same for every route (src/http/cors.ts). Yoga's own reflected any origin with
    // `Access-Control-Allow-Credentials: true` on GraphQL answers, CORS_ORIGINS or not.
    cors: false,
    logging: false,
    // GraphiQL (with the explorer) is the service's own page: src/developers/graphiql.page.ts.
    graphiql: false,
    // The HTTP layer has read the body already, refused past MAX_BODY_BYTES with the §7 envelope (src/http/graphql-surface.ts). Yoga's own
    // limit piped that body once more through a TransformStream and a Node stream pipeline, whose abort signal and
    // listeners kept part of every POST alive through young-generation GCs.
    maxRequestBodySize: false,
    // Every error is formatted with its request's scope by useCatalogueErrors, which sees the request; maskError does not.
    maskedErrors: false,
    // useDocumentCache parses and validates each document text once instead.
    parserAndValidationCache: false,
    plugins,
  });
  // Yoga's server without the whatwg-node server adapter createYoga wraps it in: that layer isolated a server context
  // per request (Object.create and a copy of every property by descriptor, even of an empty one), ran the onRequest
  // hooks of Yoga's health-check and unhandled-route plugins (no path but /graphql reaches Yoga here), and wrapped the
  // answer in promises once more. Given our request context as its server context,
  // Yoga runs the params handler with it: resolvers get the very object REST resolvers do, and nothing copies it.
  const handle = yoga.handle as unknown as (request: Request, context: YogaServerContext) => Promise<Response> | Response;

  /**
   * A plain POST skips the two ends of Yoga's request pipeline, whose promise chains, header reads and second Response
   * were a measurable part of a 20-venue search (docs/performance.md, Levers):
   * reading the request (the body is read and its parameters are what Yoga's parser would find) and, for an answer
   * without errors, writing it: its JSON text is returned, for the ingress to write as bytes (src/http/ingress.ts).
   * In between, Yoga's getResultForParams runs as it does for every request: onParams
   * hooks (persisted operations), parsing, validation and execution with every plugin, Yoga's error handling. An
   * answer with errors is written by Yoga's regular result processor after the catalogue's formatting, as
   * useCatalogueErrors and the processor Yoga negotiates for the same Accept would.
   */
  async function answerPlainPost(
    { params, mediaType }: PlainPost,
    request: RequestView,
    context: YogaServerContext,
    body: Uint8Array<ArrayBuffer>,
    fetchRequest: () => Request,
  ): Promise<string | Response> {
    let result: ExecutionResult;
    try {
      // No operation of this schema streams (no subscription type, no @defer or @stream): the result is one, never a stream.
      result = (await yoga.getResultForParams({ params, request: request as Request }, context)) as ExecutionResult;
    } catch {
      // Thrown by an onParams hook (Yoga's parameter checks, persisted operations refusing a document), before anything
      // ran: errors from parsing on are results, and no plugin has an onExecutionResult hook (checked below). Yoga
      // answers the request whole, its hooks refusing it again, as it answers every refusal.
      return yogaAnswer(fetchRequest(), context, body);
    }
    if (!result.errors?.length) return JSON.stringify(result);
    const formatted = withCatalogueErrors(result, context.scope, { baseUrl: options.baseUrl, log: options.log });
    return processRegularResult(formatted, yoga.fetchAPI, mediaType);
  }

  async function yogaAnswer(request: Request, context: YogaServerContext, body?: Uint8Array<ArrayBuffer>): Promise<Response> {
    if (body) bodies.set(request, body);
    // Nothing waits for the answer through an abort listener on the request's signal, as a server adapter's fetch()
    // did: that kept every answer alive across young-generation GCs until the next mark-compact. A client that hangs
    // up is handled by the HTTP layer, as for REST.
    return handle(request, context);
  }

  // The chain's execution does not depend on the request: taken once. Nothing of ours hooks onEnveloped.
  const { execute } = yoga.getEnveloped({} as never);
  return { fetch: yogaAnswer, plainPost: answerPlainPost, execute: (args) => execute(args) as Promise<ExecutionResult> };
}
