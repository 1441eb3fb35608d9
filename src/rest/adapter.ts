import {
  parse,
  validate,
  visit,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type ExecutionArgs,
  type ExecutionResult,
  type OperationDefinitionNode,
} from 'graphql';
import { classify, ROUTE_DOCUMENTS } from '../errors/classify.js';
import { selectsDeprecatedField } from '../graphql/deprecation-notice.js';
import { answerThroughCache, isSharedRead, type AnswerCodec } from '../cache/response-cache.js';
import { etagOfObjectBytes, exactCopy, withRequestIdBytes } from '../http/conventions.js';
import { utf8Bytes } from '../http/utf8.js';
import { ApiError } from '../errors/api-error.js';
import { assertStorableArguments } from '../errors/storable-text.js';
import type { RequestContext } from '../graphql/context.js';
import { enumOutputsOf, withWireValues, type EnumOutputs } from './enum-values.js';
import { paramSpecFrom, coerceParam, queryParamIndex, variablesFromArguments, variablesFromQuery, withEnumNames, type ParamSpec } from './params.js';
import { PAGINATION_SOURCES, camelCase, snakeCase, type Envelope, type RestRoute } from './route.js';

/** A route ready to serve: its document parsed, aliased and validated once at start. */
export interface CompiledRoute {
  route: RestRoute;
  document: DocumentNode;
  params: ParamSpec[];
  /** The query parameters by REST name (variablesFromQuery). */
  queryParams: Map<string, ParamSpec>;
  /** Matches the path after /api/v1, still percent-encoded. */
  pattern: RegExp;
  pathParams: string[];
  /** GraphQL argument name → REST parameter name, so errors name what the REST caller sent. */
  paramOfArgument: Map<string, string>;
  /** GraphQL argument name → the variable that feeds it (RestRoute.check reads arguments). */
  variableOfArgument: Map<string, string>;
  rootField: string;
  /** The root field's node, and the document's enum-typed fields whose GraphQL names REST gives back as wire values. */
  root: FieldNode;
  enumOutputs: EnumOutputs | null;
  /** The route's name in response-cache keys, or null when its answer is not the same for every caller. */
  sharedRead: string | null;
  /**
   * Whether the document selects a deprecated field (§9 headers), as the executor's deprecation notice decides it:
   * known before execution, so an answer from the response cache says so too.
   */
  deprecated: boolean;
}

/** Gives every camelCase field a snake_case alias: the REST body then has the spec's names, the values untouched. */
function withSnakeCaseAliases(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node: FieldNode) {
      const snake = snakeCase(node.name.value);
      if (node.alias || snake === node.name.value) return undefined;
      return { ...node, alias: { kind: Kind.NAME, value: snake } };
    },
  });
}

export function compileRoute(route: RestRoute, schema: GraphQLSchema): CompiledRoute {
  const document = withSnakeCaseAliases(parse(route.document));
  const problems = validate(schema, document);
  if (problems.length) throw new Error(`Route ${route.method} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const params = (operation.variableDefinitions ?? [])
    .filter((v) => v.variable.name.value !== route.body?.variable)
    .map((v) => {
      const name = snakeCase(v.variable.name.value);
      return paramSpecFrom(name, v.variable.name.value, v.type, pathParams.includes(name), schema);
    });
  const root = operation.selectionSet.selections[0] as FieldNode;
  const paramOfArgument = new Map<string, string>();
  const variableOfArgument = new Map<string, string>();
  for (const arg of root.arguments ?? []) {
    if (arg.value.kind !== Kind.VARIABLE) continue;
    paramOfArgument.set(arg.name.value, snakeCase(arg.value.name.value));
    variableOfArgument.set(arg.name.value, arg.value.name.value);
  }
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '([^?#]+)');
  return {
    route,
    document,
    params,
    queryParams: queryParamIndex(params),
    pattern: new RegExp(`^${source}$`),
    pathParams,
    paramOfArgument,
    variableOfArgument,
    rootField: root.alias?.value ?? root.name.value,
    root,
    enumOutputs: enumOutputsOf(document, schema),
    // Named for what is kept (the rendered body): a node of an older release sharing Redis keeps data under `rest:`.
    sharedRead: route.method === 'GET' && isSharedRead(document) ? `rest-body:${route.operationId}` : null,
    deprecated: selectsDeprecatedField(schema, document),
  };
}

/** Literal segments win over parameters, so /venues/pricing is never read as a venue slug. */
export function orderRoutes(routes: CompiledRoute[]): CompiledRoute[] {
  return [...routes].sort((a, b) => a.pathParams.length - b.pathParams.length);
}

/** A route that matched a request, with its path parameters' values (decoded). */
export interface MatchedRoute {
  compiled: CompiledRoute;
  pathValues: Record<string, string>;
}

export function matchRoute(routes: CompiledRoute[], method: string, path: string): MatchedRoute | null {
  for (const compiled of routes) {
    if (compiled.route.method !== method) continue;
    const match = compiled.pattern.exec(path);
    if (!match) continue;
    try {
      const pathValues = Object.fromEntries(compiled.pathParams.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
      return { compiled, pathValues };
    } catch {
      // A malformed %-escape cannot name anything; let the route's own validation answer it as a bad value.
      return { compiled, pathValues: Object.fromEntries(compiled.pathParams.map((name, i) => [name, match[i + 1]])) };
    }
  }
  return null;
}

/**
 * A route's answer: its status and its JSON body without request_id (answerBytes adds it). The text, its UTF-8 bytes
 * and a GET's ETag are rendered when first read, once: an assistant tool reads the body alone, and an answer the
 * response cache keeps in this process is rendered once for every request it serves. An answer loaded from text (a
 * Redis hit) parses its body only if a tool reads it.
 */
export class RouteAnswer {
  private parsed?: Record<string, unknown>;
  private rendered?: string;
  private encoded?: Buffer;
  private hashed?: string;
  /** A cached answer (kept()) memoises nothing it derives: what it holds is what the cache's bound counted. */
  private fixed = false;

  constructor(
    readonly status: number,
    from: { body: Record<string, unknown> } | { text: string; etag?: string } | { bytes: Buffer; etag?: string },
  ) {
    if ('body' in from) this.parsed = from.body;
    else {
      if ('bytes' in from) this.encoded = from.bytes;
      else this.rendered = from.text;
      this.hashed = from.etag;
    }
  }

  /** The answer as the in-process response cache keeps it for REST: its bytes and ETag alone, what a hit sends. */
  kept(): RouteAnswer {
    // A small body's bytes are a slice of Node's shared 8 KB pool; kept as they are, they would hold the whole slab.
    const kept = new RouteAnswer(this.status, { bytes: exactCopy(this.bytes), etag: this.etag });
    kept.fixed = true;
    return kept;
  }

  /** The answer as the in-process response cache keeps it for a tool: its body alone, what a tool hands back. */
  keptBody(): RouteAnswer {
    const kept = new RouteAnswer(this.status, { body: this.body });
    kept.fixed = true;
    return kept;
  }

  get body(): Record<string, unknown> {
    if (this.parsed) return this.parsed;
    const parsed = JSON.parse(this.text) as Record<string, unknown>;
    if (!this.fixed) this.parsed = parsed;
    return parsed;
  }

  get text(): string {
    if (this.rendered !== undefined) return this.rendered;
    const text = this.parsed ? JSON.stringify(this.parsed) : this.encoded!.toString('utf8');
    if (!this.fixed) this.rendered = text;
    return text;
  }

  get bytes(): Buffer {
    return (this.encoded ??= utf8Bytes(this.text));
  }

  /** A GET's ETag (200), hashed from the bytes it sends. */
  get etag(): string | undefined {
    return this.status === 200 ? (this.hashed ??= etagOfObjectBytes(this.bytes)) : undefined;
  }
}

/** The answer's body as sent (request_id added), as UTF-8 bytes. */
export function answerBytes(answer: RouteAnswer, requestId: string): Buffer<ArrayBuffer> {
  return withRequestIdBytes(answer.bytes, requestId);
}

/**
 * A rendered answer as the response cache keeps it: the ETag, a line break, the body (Redis). The in-process cache
 * keeps the answer's bytes and ETag (RouteAnswer.kept), so a REST hit is neither parsed nor rendered again.
 */
const routeAnswers: AnswerCodec<RouteAnswer> = {
  keep: (answer) => `${answer.etag ?? ''}\n${answer.text}`,
  load: (kept) => {
    const cut = kept.indexOf('\n');
    return new RouteAnswer(200, { etag: kept.slice(0, cut) || undefined, text: kept.slice(cut + 1) });
  },
  reuse: (answer) => {
    const kept = answer.kept();
    return { kept, bytes: kept.bytes.byteLength };
  },
};

/**
 * A tool's answers, kept in this process as the body a tool hands back, so a tool's hit is neither parsed nor
 * rendered; the bound counts twice the body's JSON length, above its heap size (1.07 × for a page of venues, measured;
 * a string with characters past Latin-1 takes two bytes each). Each entry keeps the form of the surface that computed
 * it under the one key both read: REST reading a tool's entry renders it, a tool reading REST's parses it.
 */
const toolAnswers: AnswerCodec<RouteAnswer> = {
  ...routeAnswers,
  reuse: (answer) => ({ kept: answer.keptBody(), bytes: 2 * answer.text.length }),
};

/**
 * What a route runs on: a REST request's query string, path values and body, or typed arguments by REST name (an
 * assistant tool's, which never go through text).
 */
export type RouteInput = { search: URLSearchParams; pathValues: Record<string, string>; body?: Uint8Array } | { arguments: Record<string, unknown> };

/** How a route's document runs: the GraphQL plugin chain's execution (GraphQLServer.execute). */
export type RouteExecutor = (args: ExecutionArgs) => Promise<ExecutionResult>;

/**
 * Runs a matched route's document through the GraphQL executor and returns its answer, through the response cache
 * for shared reads (the rendered body is kept, not the data).
 */
export async function runRoute(
  compiled: CompiledRoute,
  input: RouteInput,
  execute: RouteExecutor,
  schema: GraphQLSchema,
  context: RequestContext,
): Promise<RouteAnswer> {
  const rename = (argument: string) => compiled.paramOfArgument.get(argument) ?? snakeCase(argument);
  let variableValues: Record<string, unknown>;
  let checked: Partial<RequestContext> | undefined;
  try {
    if ('arguments' in input) variableValues = variablesFromArguments(input.arguments, compiled.params, compiled.queryParams);
    else {
      variableValues = variablesFromQuery(input.search, compiled.queryParams);
      for (const spec of compiled.params) {
        if (spec.in === 'path') variableValues[spec.variable] = coerceParam(spec, input.pathValues[spec.name] ?? '');
      }
    }
    if (compiled.route.body && !('arguments' in input)) {
      const { variable, check } = compiled.route.body;
      const body = jsonBody(input.body);
      variableValues[variable] = body;
      checked = check?.(body);
    }
    // Before the module's parser, as the chain's useStorableText comes before the resolvers' on /graphql: unstorable
    // text gets one answer on every surface. The chain checks these variables again; the pair costs microseconds.
    assertStorableArguments(compiled.document, variableValues);
    if (compiled.route.check) {
      const args: Record<string, unknown> = {};
      for (const [argument, variable] of compiled.variableOfArgument)
        if (variableValues[variable] !== undefined) args[argument] = variableValues[variable];
      checked = compiled.route.check(args) ?? checked;
    }
    variableValues = withEnumNames(variableValues, compiled.params);
  } catch (e) {
    if (e instanceof ApiError) throw e.renameParams(rename);
    throw new ApiError('invalid_parameters', { cause: e });
  }
  // The context is this request's alone (contextFor makes one per request): it takes the check's result itself
  // rather than being copied, ~20 fields, on every request.
  const contextValue = checked ? Object.assign(context, checked) : context;
  return answerThroughCache(
    contextValue,
    compiled.sharedRead,
    variableValues,
    async () => {
      let result: ExecutionResult;
      try {
        result = await execute({ schema, document: compiled.document, contextValue, variableValues });
      } catch (e) {
        throw refusalOf(e, rename);
      }
      return renderAnswer(compiled, result, rename);
    },
    'arguments' in input ? toolAnswers : routeAnswers,
  );
}

/**
 * What a route throws for an error of its execution, classified as every error is (src/errors/classify.ts): a refusal
 * naming the REST parameters; an unexpected failure as itself, for the surface to log before it answers.
 */
function refusalOf(thrown: unknown, rename: (argument: string) => string): unknown {
  const { error, unexpected, cause } = classify(thrown, ROUTE_DOCUMENTS);
  return unexpected ? cause : error.renameParams(rename);
}

/** The route's answer from its execution result; an error in it is thrown as the ApiError the route answers with. */
function renderAnswer(compiled: CompiledRoute, result: ExecutionResult, rename: (argument: string) => string): RouteAnswer {
  if (result.errors?.length) throw refusalOf(result.errors[0], rename);
  const raw = result.data?.[compiled.rootField];
  const data = compiled.enumOutputs && compiled.root.selectionSet ? withWireValues(raw, [compiled.root.selectionSet], compiled.enumOutputs) : raw;
  return new RouteAnswer(compiled.route.method === 'POST' ? 201 : 200, { body: envelope(compiled.route.envelope, data) });
}

function envelope(kind: Envelope, value: unknown): Record<string, unknown> {
  if (kind.kind === 'object') return { data: value };
  if (kind.kind === 'spread') {
    const body = { ...(value as Record<string, unknown>) };
    for (const key of kind.optional ?? []) if (body[key] === null) delete body[key];
    return body;
  }
  if (kind.kind === 'offsetPage' || kind.kind === 'pageNumberPage') {
    const page = value as Record<string, unknown>;
    const read = (path: readonly string[]) => path.reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], page);
    return {
      data: page.nodes,
      pagination: Object.fromEntries(Object.entries(PAGINATION_SOURCES[kind.kind]).map(([key, path]) => [key, read(path)])),
    };
  }
  const page = value as { nodes: unknown[]; page_info: { has_next_page: boolean; end_cursor: string | null }; total_count: number } & Record<
    string,
    unknown
  >;
  const body: Record<string, unknown> = {
    data: kind.optionalItemKeys ? withoutNullKeys(page.nodes, kind.optionalItemKeys) : page.nodes,
    pagination: { has_more: page.page_info.has_next_page, next_cursor: page.page_info.end_cursor, total_count: page.total_count },
  };
  for (const key of kind.extras ?? []) {
    const value = page[key];
    if (!kind.optional?.includes(key)) body[key] = value;
    else if (value !== null) body[key] = Object.fromEntries(Object.entries(value as object).filter(([, member]) => member !== null));
  }
  return body;
}

/** Items with each of `keys` left out where it is null. */
function withoutNullKeys(items: unknown[], keys: readonly string[]): unknown[] {
  for (const item of items as Array<Record<string, unknown>>) for (const key of keys) if (item[key] === null) delete item[key];
  return items;
}

/** A POST body: JSON (else 400 invalid_json), an object (else invalid_parameters), keys renamed to the input's camelCase fields. */
function jsonBody(bytes: Uint8Array | undefined): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes ?? new Uint8Array()));
  } catch (e) {
    throw new ApiError('invalid_json', { cause: e });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_parameters', { problems: [{ param: 'body', problem: 'must be a JSON object' }] });
  }
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [camelCase(key), v]));
}
