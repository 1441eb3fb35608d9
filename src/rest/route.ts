import type { RequestContext } from '../graphql/context.js';
import type { ErrorCode } from '../errors/catalogue.js';

/**
 * How a route's GraphQL result becomes its JSON body (request_id is always added):
 * - object: `{ data }`
 * - cursorPage: `{ data: nodes, pagination: { has_more, next_cursor, total_count }, ...extras }` (§2.14); `optional`
 *   extras are left out when null, and so are their own null members; `optionalItemKeys` of each item are left out
 *   when null (what a request without the parameters that fill them answered before they existed)
 * - spread: the root field's fields become the top-level body (responses whose envelope carries more than data,
 *   e.g. cost benchmarks' currency, fx, as_of; the GraphQL result type then has a `data` field of its own);
 *   `optional` keys are left out of the body when null (knowledge search's degraded, §4.6)
 * - offsetPage: `{ data: nodes, pagination: { limit, offset, total, has_more } }` (§2.14 offset style, inspiration)
 * - pageNumberPage: `{ data: nodes, pagination: { limit, page, has_more } }` (§2.14 page style, blog)
 */
export type Envelope =
  | { kind: 'object' }
  | { kind: 'cursorPage'; extras?: string[]; optional?: string[]; optionalItemKeys?: string[] }
  | { kind: 'spread'; optional?: string[] }
  | { kind: 'offsetPage' }
  | { kind: 'pageNumberPage' };

/**
 * Where each pagination key of the offset and page-number envelopes is read in the root field's result (aliased,
 * snake_case names): the route's document must select these fields. One table for the adapter and the OpenAPI document.
 */
export const PAGINATION_SOURCES = {
  offsetPage: { limit: ['limit'], offset: ['offset'], total: ['total_count'], has_more: ['page_info', 'has_next_page'] },
  pageNumberPage: { limit: ['limit'], page: ['page'], has_more: ['has_more'] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

/**
 * One /api/v1 route: a thin mapping onto a GraphQL document that runs on the same schema and resolvers as /graphql.
 * Parameters are the document's variables (camelCase → snake_case); a variable used in `path` is a path parameter.
 */
export interface RestRoute {
  method: 'GET' | 'POST';
  /** Under /api/v1, with `{name}` path parameters; a path parameter may hold slashes (encoded as %2F or not). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The GraphQL operation, written with GraphQL (camelCase) field names; snake_case aliases are added for REST. */
  document: string;
  envelope: Envelope;
  /**
   * POST routes: the JSON body (an object) becomes this variable of the document, its snake_case keys renamed to the
   * input type's camelCase fields. `check` runs the module's own input parser first, so a wrong type is reported
   * with the module's codes and words rather than as a GraphQL coercion error; what it returns joins the context the
   * document runs with (the validated input, so the resolver does not parse it again).
   */
  body?: {
    variable: string;
    check?: (input: Record<string, unknown>) => Partial<RequestContext>;
  };
  /**
   * Routes whose arguments include closed sets (GraphQL enums): the module's own input parser, run on the arguments
   * (keyed by GraphQL argument name) while they still hold the wire values REST was sent, before enum names replace
   * them. A REST caller then gets the module's codes, words and problem order, every failing parameter named, as when
   * the arguments were Strings. What it returns joins the context the document runs with (checkedWith: the parsed
   * arguments, so the resolver does not parse them again).
   */
  check?: (args: Record<string, unknown>) => Partial<RequestContext> | void;
  /** Request headers the route reads besides authentication, for the OpenAPI document (lengths as its parser checks them). */
  headers?: Array<{ name: string; description: string; minLength?: number; maxLength?: number }>;
  /** Codes this route can answer with besides the common ones (401, 429, 500), for the OpenAPI document. */
  errors: ErrorCode[];
  /**
   * Per-parameter words for the OpenAPI document, keyed by REST parameter name. Bounds are not here: they come from the
   * zod schema that enforces them (src/graphql/input-schema.ts); `enum` only names the values a free-text filter has
   * rows for, and a closed set's values come from its GraphQL enum.
   */
  paramDocs?: Record<string, { description?: string; example?: unknown; enum?: readonly string[]; default?: unknown }>;
}

/** snake_case → camelCase (REST body keys → GraphQL input fields). */
export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
