import { ApiError, isApiError } from './api-error.js';
import { docUrl } from './catalogue.js';

/**
 * pg's and pg-pool's own connection failures: plain Errors without a code, which adapter-pg passes through unwrapped
 * (a connection terminated mid-query when PostgreSQL shuts down, a checkout that timed out).
 */
const PG_CONNECTION_FAILURE =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client (was closed|has encountered a connection error) and is not queryable)$/;

/** Prisma and driver errors: a read against the database failed (§7 database_error). */
function isDatabaseFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  // A validation error is a bug in our query, not a failed read: it stays internal_error.
  if (e.name === 'PrismaClientValidationError') return false;
  return (
    /^(PrismaClient\w*Error|DriverAdapterError|DatabaseReadError)$/.test(e.name) ||
    /^(ECONNREFUSED|ECONNRESET|57P01|08\w{3})$/.test(String((e as { code?: unknown }).code ?? '')) ||
    (e.name === 'Error' && PG_CONNECTION_FAILURE.test(e.message))
  );
}

/** SQLSTATE classes a retry repeats: data exceptions (22), integrity violations (23), syntax or access rules (42). */
const DETERMINISTIC_SQLSTATE = /^(22|23|42)[0-9A-Z]{3}$/;

/**
 * A database failure that will happen again on a retry (the same data, the same statement): its SQLSTATE is in a
 * deterministic class. Connection loss, timeouts, serialization failures and anything unknown may pass on a retry.
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

/**
 * Any thrown value as the error the caller may see. Unknown failures become internal_error or database_error with
 * the catalogue's fixed message: their own text (stack, SQL, values) is logged, never returned.
 */
export function toApiError(e: unknown): { error: ApiError; unexpected: boolean } {
  if (isApiError(e)) return { error: e, unexpected: false };
  return { error: new ApiError(isDatabaseFailure(e) ? 'database_error' : 'internal_error'), unexpected: true };
}

/** The §7 error envelope's inner object. */
export function errorBody(error: ApiError, requestId: string, baseUrl: string) {
  return {
    type: error.type,
    code: error.code,
    message: error.message,
    ...(error.param ? { param: error.param } : {}),
    request_id: requestId,
    doc_url: docUrl(baseUrl, error.code),
    ...(error.hint ? { hint: error.hint } : {}),
  };
}

/** The same facts for GraphQL `extensions` (camelCase keys, as GraphQL clients expect). */
export function errorExtensions(error: ApiError, requestId: string, baseUrl: string) {
  return {
    ...error.details,
    code: error.code,
    type: error.type,
    status: error.status,
    ...(error.param ? { param: error.param } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
    requestId,
    docUrl: docUrl(baseUrl, error.code),
  };
}
