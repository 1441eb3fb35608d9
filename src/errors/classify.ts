import { GraphQLError, Kind, type ASTNode } from 'graphql';
import { isDriverAdapterError } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import type { z } from 'zod';
import { DatabaseReadError } from '../db/row-reader.js';
import { ApiError, type FieldProblem } from './api-error.js';
import type { ErrorCode } from './catalogue.js';

/**
 * The one place a thrown value becomes the catalogue error a caller is told, from structured facts only: our ApiError,
 * the class and code of a database or socket failure (SQLSTATE, Node's `code`), zod's issue codes, graphql-js's and
 * Yoga's error codes and nodes. Never from message text. Each surface renders what this returns its own way (REST
 * envelope: src/http/responses.ts, GraphQL: src/graphql/errors.ts, MCP tool error: src/mcp/mcp.server.ts, JSON-RPC
 * error: src/mcp/mcp.messages.ts, raw socket: src/http/server.ts).
 */
export interface Classified {
  /** What the caller is told. */
  error: ApiError;
  /** Not a refusal the API meant (a bug, a failed read): the caller gets the catalogue's fixed message; `cause` is logged. */
  unexpected: boolean;
  /** The failure itself, behind any GraphQL error wrapping it: what an unexpected error is logged as. */
  cause: unknown;
  /** A GraphQL request refused whole before anything ran (Yoga could not read it): answered with the error's HTTP status. */
  requestLevel?: boolean;
}

/** Where the thrown value was caught, when that says what it is. */
export interface ClassifyFacts {
  /** Node's HTTP parser refused the request (the server's `clientError` event): its codes name what was wrong. */
  httpParser?: boolean;
  /**
   * The GraphQL document was the server's own (a REST route, an assistant tool), not the caller's: GraphQL refusing it
   * is a fault of ours, and a variable it refuses is a parameter named without GraphQL's words.
   */
  declaredDocument?: boolean;
  /** The GraphQL error was found validating the document: a variable definition it names was not coerced. */
  validating?: boolean;
  /** The caller's GraphQL document, searched for the argument a refused value belongs to (src/graphql/refused-argument.ts). */
  arguments?: ArgumentFinder;
}

/** The facts of every error a REST route or an assistant tool answers: the GraphQL documents they run are the server's. */
export const ROUTE_DOCUMENTS: ClassifyFacts = { declaredDocument: true };

/** A number argument's refusal of a value, in its parser's terms; null when the parser takes the value. */
export type NumberRefusal = (value: unknown) => ApiError | null;

/** An argument a refused value was given to, and the code its own refusal has, if it names one. */
export interface RefusedArgument {
  name: string;
  /** The argument's `refusalCode` extension: the spec's code for a value outside its set (invalid_season, …). */
  code?: ErrorCode;
  /** A bounded number argument's own refusal (numberRefusalOf). */
  refuse?: NumberRefusal;
  /** The value written in the document, when the refused node is the argument's whole value (not a variable). */
  written?: { value: unknown };
}

/** The arguments of one GraphQL document, found by the node or the variable an error names. */
export interface ArgumentFinder {
  /** The argument a node is, or whose written value holds the node; null for any other node. */
  holding(node: ASTNode): RefusedArgument | null;
  /** The argument a variable is given to. */
  fedBy(variable: string): RefusedArgument | null;
}

export function classify(thrown: unknown, facts: ClassifyFacts = {}): Classified {
  if (thrown instanceof ApiError) return meant(thrown, thrown);
  if (facts.httpParser) return meant(new ApiError(httpParserCode(thrown)), thrown);
  if (thrown instanceof GraphQLError) return classifyGraphQL(thrown, facts);
  return { error: new ApiError(isDatabaseFailure(thrown) ? 'database_error' : 'internal_error'), unexpected: true, cause: thrown };
}

const meant = (error: ApiError, cause: unknown, requestLevel?: boolean): Classified => ({
  error,
  unexpected: false,
  cause,
  ...(requestLevel ? { requestLevel } : {}),
});

/** An answer Yoga gave with an empty body, by its HTTP status (Yoga's refusals of a media type, an Accept, a method). */
export function classifyEmptyAnswer(status: number): ApiError {
  return new ApiError(status === 415 ? 'unsupported_media_type' : status === 406 ? 'not_acceptable' : 'malformed_request');
}

/** Node's parser refusals by its error codes (llhttp's HPE_*, the server's own timeouts). */
function httpParserCode(error: unknown): ErrorCode {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'malformed_request';
}

// ---------------------------------------------------------------------------------------------------------------------
// Databases: Prisma, its driver adapter, pg, Node's sockets.

/** Prisma's error classes for a request that failed in the database or on the way to it (§7 database_error). */
const PRISMA_FAILURES = new Set([
  'PrismaClientKnownRequestError',
  'PrismaClientUnknownRequestError',
  'PrismaClientRustPanicError',
  'PrismaClientInitializationError',
]);

/**
 * Node's socket codes (SystemError) and the SQLSTATEs for a connection the database dropped or refused: class 08
 * (connection exception), 57P01 (admin shutdown, a restart), 53300 (too many connections).
 */
const CONNECTION_CODE = /^(ECONNREFUSED|ECONNRESET|57P01|53300|08[0-9A-Z]{3})$/;

/**
 * Whether a read against the database failed, by who threw it. Prisma's classes and the driver adapter's error are told
 * by name, as Prisma itself tells them (two copies of @prisma/driver-adapter-utils each have their own class). pg and
 * pg-pool throw their connection failures ("Connection terminated unexpectedly", a checkout timeout) as plain Errors
 * with no code, which adapter-pg passes through: Prisma stamps its `clientVersion` on whatever its request threw
 * (checked in test/errors/classify.test.ts), and Database.readRows wraps its own failures in DatabaseReadError.
 */
function isDatabaseFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  // A validation error is a bug in our query, not a failed read: it stays internal_error.
  if (e.name === 'PrismaClientValidationError') return false;
  const facts = e as { code?: unknown; clientVersion?: unknown };
  return (
    e instanceof DatabaseReadError ||
    e instanceof pg.DatabaseError ||
    PRISMA_FAILURES.has(e.name) ||
    isDriverAdapterError(e) ||
    typeof facts.clientVersion === 'string' ||
    (typeof facts.code === 'string' && CONNECTION_CODE.test(facts.code))
  );
}

/** SQLSTATE classes a retry repeats: data exceptions (22), integrity violations (23), syntax or access rules (42). */
const DETERMINISTIC_SQLSTATE = /^(22|23|42)[0-9A-Z]{3}$/;

/**
 * A database failure that will happen again on a retry (the same data, the same statement): its SQLSTATE, wherever
 * the driver, its adapter or Prisma keep it, is in a deterministic class. Connection loss, timeouts, serialization
 * failures and anything unknown may pass on a retry.
 */
export function isDeterministicDatabaseFailure(e: unknown): boolean {
  const codes: unknown[] = [];
  for (let cause: unknown = e, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const c = cause as { code?: unknown; originalCode?: unknown; meta?: { code?: unknown }; cause?: unknown };
    codes.push(c.code, c.originalCode, c.meta?.code);
    cause = c.cause;
  }
  return codes.some((code) => typeof code === 'string' && DETERMINISTIC_SQLSTATE.test(code));
}

// ---------------------------------------------------------------------------------------------------------------------
// zod: a failed parse of a service input.

/**
 * zod's parse context that words every issue in ours, by its code and bounds. zod asks a check's or schema's own
 * `error` first and this only when there is none, so a message we wrote on the schema is kept as it is and zod's own
 * wording is never reached (its defaults are not for users).
 */
export const IN_OUR_WORDS = { error: ourWords } satisfies z.core.ParseContext<z.core.$ZodIssue>;

/** A size or value bound in our words: characters for text, items for a list, the value itself for a number. */
function boundWords(origin: string, side: 'least' | 'most', bound: number | bigint): string {
  if (origin === 'string') return `must be at ${side} ${bound} characters`;
  if (origin === 'array') return `must have at ${side} ${bound} items`;
  return `must be at ${side} ${bound}`;
}

function ourWords(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'too_small':
      return boundWords(issue.origin, 'least', issue.minimum);
    case 'too_big':
      return boundWords(issue.origin, 'most', issue.maximum);
    case 'invalid_type':
      return issue.expected === 'int' ? 'must be an integer' : `must be a ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `has unknown fields: ${issue.keys.join(', ')}`;
    default:
      return 'is invalid';
  }
}

/** A failed parse (with IN_OUR_WORDS) as one invalid_parameters error naming every failing field, param the first. */
export function invalidParameters(error: z.ZodError): ApiError {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const param = issue.path.length ? String(issue.path[0]) : 'input';
    if (!problems.some((p) => p.param === param)) problems.push({ param, problem: issue.message });
  }
  return new ApiError('invalid_parameters', { problems });
}

// ---------------------------------------------------------------------------------------------------------------------
// GraphQL: what graphql-js, Yoga and its plugins refused, and what a resolver threw through them.

/** A GraphQL error already rendered from a classified refusal (src/graphql/errors.ts marks it), with that refusal. */
const CLASSIFIED = Symbol('classified');

/** Marks a rendered GraphQL error with the refusal it says; not enumerable, so nothing of it reaches a response. */
export function markClassified(rendered: GraphQLError, refusal: ApiError): void {
  Object.defineProperty(rendered, CLASSIFIED, { value: refusal });
}

/**
 * The refusals of @graphql-yoga/plugin-persisted-operations (src/graphql/persisted-operations.ts), by the extensions
 * code the plugin gives them (its messages are bare class names): each is a catalogue code, and a request-level
 * refusal, since nothing ran.
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
 * graphql-js wraps what a resolver throws (a GraphQLError of ours included) in a located error: the innermost
 * GraphQLError says what happened. A variable GraphQL could not coerce is told by its node first (graphql-tools wraps
 * a scalar's own error in one whose node is the variable's definition); then what was thrown inside, classified as
 * itself; then what graphql-js or Yoga refused on its own.
 */
function classifyGraphQL(error: GraphQLError, facts: ClassifyFacts): Classified {
  let innermost = error;
  let carriesHttp = error.extensions?.http !== undefined;
  let original = error.originalError;
  while (original instanceof GraphQLError) {
    innermost = original;
    carriesHttp ||= original.extensions?.http !== undefined;
    original = original.originalError;
  }
  const before = (innermost as { [CLASSIFIED]?: ApiError })[CLASSIFIED];
  if (before) return meant(before, error);
  const variable = facts.validating ? null : refusedVariable(error);
  if (variable) return meant(variableRefusal(error, variable, facts), error);
  if (original) return classify(original);
  // Nothing of the caller's reached graphql-js: what it refused is the server's own document.
  if (facts.declaredDocument) return { error: new ApiError('internal_error'), unexpected: true, cause: error };
  return graphqlRefusal(innermost, carriesHttp, facts);
}

/**
 * The variable a graphql-js coercion error is about (missing, wrong type): its node is the variable's definition,
 * so the name is read from the document, never from the message's wording.
 */
function refusedVariable(error: GraphQLError): string | null {
  const node = error.nodes?.[0];
  return node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : null;
}

function variableRefusal(error: GraphQLError, variable: string, facts: ClassifyFacts): ApiError {
  // A REST caller named no GraphQL variable or type: the parameter (renamed by the REST adapter) is named alone.
  if (facts.declaredDocument) return new ApiError('invalid_parameters', { problems: [{ param: variable, problem: 'has an invalid value' }] });
  return argumentRefusal(facts.arguments?.fedBy(variable) ?? null, error.message, variable);
}

/**
 * What graphql-js or Yoga itself refused (no original error), by its extensions code: a document that does not parse
 * (GRAPHQL_PARSE_FAILED, which src/graphql/complexity.ts gives every syntax error it parses) or validate, a request
 * Yoga cannot read. A value written in the document that its argument's type cannot take, or an argument the field
 * does not have, is a parameter error, as the same mistake in a variable or a REST parameter is. Their messages
 * describe the caller's own request and are kept.
 */
function graphqlRefusal(error: GraphQLError, carriesHttp: boolean, facts: ClassifyFacts): Classified {
  const node = error.nodes?.[0];
  const argument = node ? facts.arguments?.holding(node) : null;
  if (argument) return meant(argumentRefusal(argument, error.message, argument.name), error);
  const code = error.extensions?.code;
  const persisted = PERSISTED_OPERATION_REFUSALS.get(code);
  if (persisted) return meant(persisted(), error, true);
  const message = error.message;
  switch (code) {
    case 'GRAPHQL_PARSE_FAILED':
      return meant(new ApiError('graphql_parse_failed', { message }), error);
    case 'BAD_REQUEST': {
      // A request Yoga could not read at all (bad JSON, no body) is 400 whatever the Accept: GraphQL-over-HTTP's 200
      // for application/json is for documents that were read and then failed.
      const status = (error.extensions.http as { status?: number } | undefined)?.status;
      return meant(new ApiError(status === 405 ? 'method_not_allowed' : 'invalid_graphql_request', { message }), error, carriesHttp);
    }
    case 'OPERATION_RESOLUTION_FAILURE':
      return meant(new ApiError('invalid_graphql_request', { message, param: 'operationName' }), error);
    default:
      return meant(new ApiError('graphql_validation_failed', { message }), error);
  }
}

/**
 * A value its argument cannot take: the argument's own code when it names one (the spec's invalid_season for the
 * estimator's season enum, as REST answers); for a bounded number, its parser's refusal of the value written, or of
 * NaN when a variable held it (the error does not carry the value; NaN is a number no bounded argument takes, so the
 * parser says what it does take), naming `param`; else invalid_parameters naming `param` with GraphQL's message.
 */
function argumentRefusal(argument: RefusedArgument | null, message: string, param: string): ApiError {
  if (argument?.code) return new ApiError(argument.code, { param: argument.name });
  const refusal = argument?.refuse?.(argument.written ? argument.written.value : Number.NaN);
  if (refusal) return refusal.renameParams((name) => (name === argument!.name ? param : name));
  return new ApiError('invalid_parameters', { message, param });
}
