import { ERROR_CATALOGUE, statusOf, type ErrorCode, type ErrorType } from './catalogue.js';

/** One failing input field and what is wrong with it, in our words ("must be at most 100"). */
export interface FieldProblem {
  param: string;
  problem: string;
}

export interface ApiErrorOptions {
  message?: string;
  /** Every failing field (invalid_parameters); the message is built from them and `param` is the first. */
  problems?: FieldProblem[];
  /** The one input field at fault, named as the caller's surface names it (GraphQL argument / REST parameter). */
  param?: string;
  hint?: string;
  /** Extra response headers (Retry-After, rate limit headers). */
  headers?: Record<string, string>;
  /** Facts a client may act on beyond the code (a GraphQL bound's name, max and actual), given in GraphQL extensions. */
  details?: Record<string, string | number>;
  cause?: unknown;
}

/** A failure the API reports to its caller with a code from the catalogue (§7). */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly status: number;
  readonly param?: string;
  readonly hint?: string;
  readonly headers?: Record<string, string>;
  readonly problems?: FieldProblem[];
  readonly details?: Record<string, string | number>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code];
    const message = options.message ?? (options.problems?.length ? describeProblems(options.problems) : entry.message);
    // An ApiError is an answer, not a bug: its stack is never sent or logged (an unexpected error is logged as itself,
    // src/errors/translate.ts). Capturing one was 8 % of the CPU of a request refused with 401, which a flood of bad keys pays.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.type = entry.type;
    this.status = statusOf(code);
    this.problems = options.problems;
    this.param = options.param ?? options.problems?.[0]?.param;
    this.hint = options.hint ?? ('hint' in entry ? entry.hint : undefined);
    this.headers = options.headers;
    this.details = options.details;
  }

  /**
   * The same error with its parameter names as another surface names them (GraphQL argument → REST parameter),
   * so a REST caller reads `capacity_min` where a GraphQL caller reads `capacityMin`.
   */
  renameParams(rename: (param: string) => string): ApiError {
    if (!this.param) return this;
    const problems = this.problems?.map((p) => ({ param: rename(p.param), problem: p.problem }));
    return new ApiError(this.code, {
      message: problems ? undefined : this.message.replaceAll(this.param, rename(this.param)),
      problems,
      param: rename(this.param),
      hint: this.hint,
      headers: this.headers,
      details: this.details,
      cause: this.cause,
    });
  }
}

function describeProblems(problems: FieldProblem[]): string {
  return `Invalid parameters: ${problems.map((p) => `${p.param} ${p.problem}`).join('; ')}.`;
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
