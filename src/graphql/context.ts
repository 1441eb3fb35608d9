import type DataLoader from 'dataloader';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { RowReader } from '../db/row-reader.js';
import type { ApiKeyIdentity } from '../auth/api-keys.service.js';
import type { CursorCodec } from '../pagination/cursor.js';
import type { Logger } from '../logging/logger.js';
import type { Limits } from '../limits/limits.service.js';
import type { InquiryInput } from '../inquiries/inquiries.inputs.js';
import type { AnswerNotes, CacheOutcome, ResponseCache } from '../cache/response-cache.js';

/*
 * The context every resolver and service call of one request sees, whichever surface it came by. It is the
 * executor's, so the schema and its modules import nothing of HTTP; the HTTP layer builds it (src/app-context.ts,
 * from the requests of src/http/context.ts) and reads the request scope back once the request is served.
 */

/**
 * Where a request came in: the rules are the same, the stored lead records it (issue: inquiries). `pages`: the public
 * pages (src/site/), which read the catalogue through the services and never run an operation.
 */
export type Surface = 'rest' | 'graphql' | 'mcp' | 'pages';

/** Long-lived dependencies of the app, built once by createApp. */
export interface AppDeps {
  prisma: PrismaClient;
  /**
   * Plain SQL through the driver, for statements every request or a whole route is (the key lookup, the aggregate
   * lists, the inspiration gallery, blog posts): Prisma's raw query costs clearly more per statement
   * (docs/performance.md, Levers).
   */
  readRows: RowReader;
  /** The clock every rule reads; tests inject a fixed or advancing one. */
  now: () => Date;
  /** Public origin of this service for absolute URLs (doc_url, the developer pages, media), without a trailing slash. */
  baseUrl: string;
  /**
   * Where the public pages that `url` and `sourceUrl` fields name live: PUBLIC_SITE_URL, else baseUrl (this service
   * serves them, src/site/). Without a trailing slash.
   */
  siteUrl: string;
  cursors: CursorCodec;
  log: Logger;
  /** Rate limits (§8): one limiter below both surfaces. */
  limits: Limits;
  /**
   * The catalogue's generation as this node last read it (src/cache/catalogue-generation.ts): cached answers and the
   * day's exchange rates belong to the generation they were read under.
   */
  generation: () => number;
  /** Answers of shared catalogue reads (src/cache/response-cache.ts); unset: every request is executed. */
  responseCache?: ResponseCache;
}

/** Batching loaders, made fresh for every request so nothing is cached across callers. */
export interface RequestLoaders {
  /** Rate of the day for a currency pair like "USD:AUD": the newest rate dated on or before today. */
  exchangeRate: DataLoader<string, { rate: number; rateDate: string } | null>;
  /** A blog post's plain-text body by id: the bodies a list page asks for, read together. */
  postBody: DataLoader<string, string | null>;
}

/** What every resolver and service call of one request sees, on both surfaces. */
export interface RequestContext extends AppDeps {
  requestId: string;
  surface: Surface;
  apiKey: ApiKeyIdentity;
  loaders: RequestLoaders;
  /** X-Idempotency-Key of the request, when sent (§4.12; inquiries only). */
  idempotencyKey?: string | null;
  /** An inquiry's input, validated in §4.10's order before GraphQL coerced it (src/inquiries/lead-input.ts). */
  checkedInquiry?: InquiryInput;
  /** The root field's arguments as a REST route's check already parsed them (RestRoute.check; read with parsedArguments). */
  checkedArguments?: CheckedArguments;
  /** What this request's execution charged and whether its answer may be cached (set by executeThroughCache). */
  answerNotes?: AnswerNotes;
  /** What the HTTP layer reads back once the request is served (unset for assistant tool calls). */
  scope?: RequestScope;
}

/** Arguments one parser has already turned into its output, kept with the parser that did it. */
export interface CheckedArguments {
  parse: (input: unknown) => unknown;
  value: unknown;
}

/** A check's result for the request context: `parse(args)`, kept so the resolver does not run the same parser again. */
export function checkedWith<T>(parse: (input: unknown) => T, args: unknown): { checkedArguments: CheckedArguments } {
  return { checkedArguments: { parse, value: parse(args) } };
}

/**
 * `parse(args)`, or what the REST route's check already got from the same parser on the same request. A route's
 * check parses the raw parameters (to answer the spec's codes before GraphQL coerces enums); the resolver need not
 * parse them again.
 */
export function parsedArguments<T>(ctx: Pick<RequestContext, 'checkedArguments'>, parse: (input: unknown) => T, args: unknown): T {
  const checked = ctx.checkedArguments;
  return checked?.parse === parse ? (checked.value as T) : parse(args);
}

/** What the key check, limits and client IP read of a request's headers: Fetch's Headers, or node's. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What the HTTP layer learns about the request being served while it runs: its headers and metrics read it after. */
export interface RequestScope {
  requestId: string;
  log: Logger;
  /** Set during execution when the operation selected a deprecated field (the response then says so in headers). */
  usedDeprecatedFields?: boolean;
  /** The GraphQL document being executed and its schema (set before execution), for errors that name only a variable. */
  document?: DocumentNode;
  schema?: GraphQLSchema;
  /** Set when a GraphQL error was formatted for the response: an HTTP 200 with field errors is not cached. */
  answeredWithErrors?: boolean;
  /** What the metrics call this request: a REST route template or a GraphQL operation name (set while serving). */
  route?: string;
  /** Whether the response cache answered (X-Cache), and the answer's age in seconds on a hit (Age). */
  cache?: CacheOutcome;
}
