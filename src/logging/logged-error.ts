/**
 * An error as a log line carries it. Prisma's messages name the calling source file and quote its lines
 * ("Invalid `prisma.x.findMany()` invocation in /…/dispatcher.ts:101:49" and an excerpt), PostgreSQL's can quote the
 * failing row (a lead's contents), and stacks are paths: none of that belongs in an operator's log. So a line gets the
 * error's name and codes and a short text that cannot carry them; a logger at `debug` adds the stacks.
 */
export interface LoggedError {
  /** The error's class: `PrismaClientKnownRequestError`, `DatabaseError`, `BreakerOpenError`, `Error`… */
  name: string;
  /** Prisma's code (`P1001`), the SQLSTATE (`57P01`), Node's or ioredis's code (`ECONNREFUSED`), an ApiError's code. */
  code?: string | number;
  /** The SQLSTATE under a Prisma error (its driver adapter's), when Prisma's own code is not one. */
  sqlState?: string;
  /** Node's errno of a system error (a negative number). */
  errno?: number;
  /**
   * For Prisma and SQL errors a fixed description of the code (their own text is never used); for others the first
   * line of the message with every path removed, at most {@link MESSAGE_MAX} characters.
   */
  message?: string;
  /** Only when the logger is at `debug` or below. */
  stack?: string;
  cause?: LoggedError;
  /** An AggregateError's members (Node's ECONNREFUSED per address tried), the first {@link MEMBERS_MAX}. */
  errors?: LoggedError[];
}

const MESSAGE_MAX = 200;
const MEMBERS_MAX = 3;
/** Causes followed below the logged error; a longer chain (or a cycle) ends with the last one logged. */
const CAUSE_DEPTH = 4;

/** SQLSTATE: a class of two characters and three more (PostgreSQL Appendix A). */
const SQLSTATE = /^(?:\d[\dA-Z]|HV|XX|P0|F0)[\dA-Z]{3}$/;

/** PostgreSQL's class names (Appendix A), for the classes a running service meets. */
const SQLSTATE_CLASSES: Record<string, string> = {
  '08': 'connection exception',
  '22': 'data exception',
  '23': 'integrity constraint violation',
  '25': 'invalid transaction state',
  '28': 'invalid authorization specification',
  '40': 'transaction rollback',
  '42': 'syntax error or access rule violation',
  '53': 'insufficient resources',
  '54': 'program limit exceeded',
  '55': 'object not in prerequisite state',
  '57': 'operator intervention',
  '58': 'system error',
  XX: 'internal error',
};

/** Prisma's codes a running service meets (prisma.io/docs/orm/reference/error-reference). */
const PRISMA_CODES: Record<string, string> = {
  P1000: 'database authentication failed',
  P1001: 'database server unreachable',
  P1002: 'database server timed out',
  P1008: 'database operation timed out',
  P1017: 'database server closed the connection',
  P2002: 'unique constraint failed',
  P2003: 'foreign key constraint failed',
  P2010: 'raw query failed',
  P2024: 'timed out waiting for a connection from the pool',
  P2025: 'record not found',
  P2028: 'transaction API error',
  P2034: 'write conflict or deadlock',
  P2037: 'too many database connections',
  P2039: 'database error',
};

const PRISMA_CLASSES: Record<string, string> = {
  PrismaClientKnownRequestError: 'Prisma request failed',
  PrismaClientUnknownRequestError: 'Prisma request failed (no code)',
  PrismaClientValidationError: 'Prisma refused the query arguments',
  PrismaClientInitializationError: 'Prisma client could not start',
  PrismaClientRustPanicError: 'Prisma engine panicked',
  DriverAdapterError: 'database driver error',
};

/**
 * What a message must not carry: URLs (`file:///…`, a webhook's), paths of two segments or more
 * (`/work/main/src/x.ts:1:2`, `C:\…`), a source file with a line number, anything under node_modules.
 */
const PATHS =
  /[a-z][a-z\d+.-]*:\/\/\S*|(?:[A-Za-z]:)?[^\s/\\'"`()<>]*(?:[/\\][^\s/\\'"`()<>]+){2,}|[^\s'"`()<>]+\.[cm]?[jt]sx?(?::\d+)+|\S*node_modules\S*/g;

type Facts = {
  name?: unknown;
  code?: unknown;
  errorCode?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  errno?: unknown;
  message?: unknown;
  stack?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } };
};

/** First line of a message, paths replaced, bounded: what a generic error (ioredis, pg-pool, fetch) says. */
export function scrubMessage(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) return undefined;
  const scrubbed = line.replace(PATHS, '[path]');
  return scrubbed.length > MESSAGE_MAX ? `${scrubbed.slice(0, MESSAGE_MAX - 1)}…` : scrubbed;
}

function nameOf(value: object & Facts): string {
  // pg's DatabaseError names itself 'error'; its class says more.
  if (typeof value.name === 'string' && value.name !== '' && value.name !== 'error') return value.name;
  const constructorName = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === 'string' && constructorName !== 'Object' ? constructorName : 'Error';
}

function codeOf(value: Facts): string | number | undefined {
  for (const code of [value.code, value.errorCode, value.originalCode]) {
    if (typeof code === 'string' || typeof code === 'number') return code;
  }
  return undefined;
}

/** Errors whose own text may quote source lines, SQL or stored values: described by their code instead. */
function describedByCode(name: string, code: string | number | undefined, value: Facts): string | undefined {
  const known = typeof code === 'string' ? PRISMA_CODES[code] : undefined;
  if (known) return known;
  const sqlState = typeof code === 'string' && SQLSTATE.test(code);
  if (sqlState) return SQLSTATE_CLASSES[(code as string).slice(0, 2)] ?? 'database error';
  if (name in PRISMA_CLASSES) return PRISMA_CLASSES[name];
  if (/^PrismaClient\w*Error$/.test(name)) return 'Prisma error';
  // A driver adapter's payload (the cause of a DriverAdapterError): its originalMessage is the database's own text.
  if (value.originalMessage !== undefined) return 'database error';
  return undefined;
}

function sqlStateUnder(value: Facts, code: string | number | undefined): string | undefined {
  const candidate = value.meta?.driverAdapterError?.cause?.originalCode ?? value.meta?.code;
  return typeof candidate === 'string' && SQLSTATE.test(candidate) && candidate !== code ? candidate : undefined;
}

function logged(value: unknown, withStack: boolean, depth: number): LoggedError {
  if (value === null || typeof value !== 'object') {
    const message = scrubMessage(String(value));
    return { name: typeof value, ...(message ? { message } : {}) };
  }
  const facts = value as Facts;
  const name = nameOf(facts);
  const code = codeOf(facts);
  const sqlState = sqlStateUnder(facts, code);
  const message = describedByCode(name, code, facts) ?? (typeof facts.message === 'string' ? scrubMessage(facts.message) : undefined);
  const out: LoggedError = { name };
  if (code !== undefined) out.code = code;
  if (sqlState) out.sqlState = sqlState;
  if (typeof facts.errno === 'number') out.errno = facts.errno;
  if (message) out.message = message;
  if (withStack && typeof facts.stack === 'string') out.stack = facts.stack;
  if (facts.cause !== undefined && facts.cause !== value && depth < CAUSE_DEPTH) out.cause = logged(facts.cause, withStack, depth + 1);
  if (Array.isArray(facts.errors) && facts.errors.length > 0 && depth < CAUSE_DEPTH) {
    out.errors = facts.errors.slice(0, MEMBERS_MAX).map((member) => logged(member, withStack, depth + 1));
  }
  return out;
}

/** Any thrown value (an Error, a plain object, a string) as it may appear in a log line. */
export function loggedError(value: unknown, options: { stack: boolean }): LoggedError {
  return logged(value, options.stack, 0);
}
