import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors/api-error.js';
import type { HeaderReader } from '../graphql/context.js';
import { Answer } from '../http/answer.js';
import { json } from '../http/responses.js';
import type { Logger } from '../logging/logger.js';
import { ExchangeTransport, type Delivery } from './mcp.exchange.js';
import {
  badParamsAnswer,
  batchRefusal,
  isRunnerCall,
  jsonRpcError,
  paramsProblem,
  rpcRefusalOf,
  SERVER_ERROR,
  type RpcRefusal,
} from './mcp.messages.js';
import { createAssistantServer, runToolOnCore, type PreparedTool, type RouteRunner, type ToolErrorContext } from './mcp.server.js';

export interface McpHttpOptions {
  /** The tool table with its schemas (built once, on first use). */
  tools: () => PreparedTool[];
  baseUrl: string;
  /** Origins allowed besides the service's own (MCP_ALLOWED_ORIGINS). @default none */
  allowedOrigins: string[];
  /** The tool runner of one request, for its client IP (keyless budgets) and request id. */
  runner: (ip: string, requestId: string, log: Logger) => RouteRunner;
  /**
   * Counts `count` messages (≥ 1) the tool runner will not count on the IP's keyless budget, all or none, before any
   * runs; throws 429 when they do not all fit. Returns the X-RateLimit headers after counting.
   */
  admitKeyless: (ip: string, count: number) => Promise<Record<string, string>>;
  /** Counts tool calls that were answered without reaching the runner, as many as fit; 0 only reads. Returns the headers. */
  countKeyless: (ip: string, count: number) => Promise<Record<string, string>>;
  toApiError: (error: unknown, log: Logger, requestId: string) => ApiError;
}

type Scope = { ip: string; requestId: string; log: Logger };

/** A POST to /mcp as the handler reads it (src/http/ingress.ts's Visit). */
export interface McpPost {
  headers: HeaderReader;
  /** The request's URL, read only to judge an Origin (isLoopbackSameOrigin). */
  url: () => string;
  /** The body's bytes; throws payload_too_large past the body limit. */
  body: () => Promise<Uint8Array>;
}

export interface McpHttpHandler {
  /** A POST to /mcp. */
  post(post: McpPost, scope: Scope): Promise<Answer>;
  /** Any other method: 403 for an Origin not allowed, else 405. */
  other(request: Omit<McpPost, 'body'>): Answer;
}

/** The media type of the answers the SDK's transport wrote; refusals of whole requests are ours, with a charset. */
const RPC_JSON = 'application/json';

const jsonAnswer = (status: number, body: unknown, type = RPC_JSON, headers: Record<string, string> = {}): Answer =>
  json(status, body, { 'content-type': type, ...headers });

/** A request refused whole, before the MCP server sees any message of it: JSON-RPC's error response with id null. */
function rpcRefusal(refusal: RpcRefusal, type = 'application/json; charset=utf-8'): Answer {
  return jsonAnswer(refusal.status, jsonRpcError(refusal), type, refusal.headers);
}

const notPost = () =>
  rpcRefusal({
    status: 405,
    code: SERVER_ERROR,
    message: 'This stateless MCP server takes POST only (no SSE stream, no session).',
    headers: { allow: 'POST' },
  });

/** The body as JSON; a body that is not UTF-8 JSON is the caller's invalid_json, not an unexpected error. */
function jsonOf(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new ApiError('invalid_json', { cause });
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A page served by this very listener on a loopback address may call it (a local assistant UI). The Host header is
 * the attacker's to choose in DNS rebinding (evil.example resolving to 127.0.0.1 sends Host and Origin both naming
 * evil.example), so same-origin alone proves nothing: it counts only when the name is a loopback one.
 */
function isLoopbackSameOrigin(origin: string, requestUrl: string): boolean {
  const own = new URL(requestUrl);
  return origin === own.origin && LOOPBACK_HOSTS.has(own.hostname);
}

/** What one HTTP request's tool calls run under, found by the server's handler through the transport. */
type Exchange = { run: RouteRunner; context: ToolErrorContext };

/**
 * /mcp: the keyless assistant server over Streamable HTTP, stateless (JSON responses, no SSE stream, no session). One
 * server per app, made on first use, serves every request through an ExchangeTransport. GET and DELETE answer 405: a
 * stateless server offers no standalone stream and no session. DNS-rebinding protection: a request whose Origin is
 * present and neither this service's nor allowed is refused 403.
 */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const ownOrigin = new URL(options.baseUrl).origin;
  const allowed = new Set([ownOrigin, ...options.allowedOrigins]);
  let toolNames: ReadonlySet<string> | undefined;
  let connected: Promise<ExchangeTransport<Exchange>> | undefined;
  const transport = () =>
    (connected ??= (async () => {
      const exchanges = new ExchangeTransport<Exchange>();
      const server = createAssistantServer(options.tools(), (tool, args, requestId) => {
        const { run, context } = exchanges.scopeOf(requestId);
        return runToolOnCore(tool, args, run, context);
      });
      await server.connect(exchanges);
      return exchanges;
    })());

  function originRefusal(headers: HeaderReader, url: () => string): Answer | null {
    const origin = headers.get('origin');
    if (origin === null || allowed.has(origin) || isLoopbackSameOrigin(origin, url())) return null;
    return rpcRefusal({ status: 403, code: SERVER_ERROR, message: `Origin ${origin} is not allowed.` });
  }

  async function post(request: McpPost, scope: Scope): Promise<Answer> {
    const refused = originRefusal(request.headers, request.url);
    if (refused) return refused;
    let parsed: unknown;
    try {
      parsed = jsonOf(await request.body());
    } catch (error) {
      return rpcRefusal(rpcRefusalOf(options.toApiError(error, scope.log, scope.requestId)));
    }
    const refusal = batchRefusal(request.headers, parsed);
    if (refusal) return rpcRefusal(refusal);
    toolNames ??= new Set(options.tools().map((t) => t.name));
    return counted(request.headers, parsed, scope, toolNames, options, await transport());
  }

  return {
    post,
    other: ({ headers, url }) => originRefusal(headers, url) ?? notPost(),
  };
}

/**
 * Counts and runs an admitted body. Every message counts one keyless request of the IP (§8.4): a tool call the runner
 * will run is counted there, per call, its refusal a tool error (§5.2); every other message is counted here before
 * anything runs, the whole body refused 429 when they do not all fit. A tool call answered without reaching the runner
 * (its request refused as malformed, its arguments refused by toolArguments) is counted afterwards. The answer carries
 * the X-RateLimit headers as they stand after all of it.
 */
async function counted(
  headers: HeaderReader,
  body: unknown,
  scope: Scope,
  toolNames: ReadonlySet<string>,
  options: McpHttpOptions,
  transport: ExchangeTransport<Exchange>,
): Promise<Answer> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const problems = messages.map(paramsProblem);
  const calls = messages.filter((m, i) => isRunnerCall(m, problems[i], toolNames)).length;
  let limits: Record<string, string> = {};
  if (calls < messages.length) {
    try {
      limits = await options.admitKeyless(scope.ip, messages.length - calls);
    } catch (error) {
      return rpcRefusal(rpcRefusalOf(options.toApiError(error, scope.log, scope.requestId)));
    }
  }
  let ran = 0;
  const runner = options.runner(scope.ip, scope.requestId, scope.log);
  const exchange: Exchange = {
    run: (operationId, args) => {
      ran++;
      return runner(operationId, args);
    },
    context: { requestId: scope.requestId, baseUrl: options.baseUrl, toApiError: (e) => options.toApiError(e, scope.log, scope.requestId) },
  };
  const answer = await exchanged(headers, messages, problems, exchange, transport);
  if (calls > 0) limits = await options.countKeyless(scope.ip, Math.max(0, calls - ran));
  for (const [name, value] of Object.entries(limits)) answer.headers.set(name, value);
  return answer;
}

/**
 * What the SDK's Streamable HTTP transport checks of a POST, in its order and words (Accept, Content-Type, JSON-RPC
 * shape, one initialize alone, the MCP-Protocol-Version header), then the messages handed to the server; the answers
 * to its requests are the body, one alone as itself, several as an array. Only notifications (or responses): 202.
 */
async function exchanged(
  headers: HeaderReader,
  messages: unknown[],
  problems: Array<string | null>,
  exchange: Exchange,
  transport: ExchangeTransport<Exchange>,
): Promise<Answer> {
  const refuse = (status: number, code: number, message: string) => rpcRefusal({ status, code, message }, RPC_JSON);
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    return refuse(406, SERVER_ERROR, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!isJsonContentType(headers.get('content-type'))) {
    return refuse(415, SERVER_ERROR, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const parsed: JSONRPCMessage[] = [];
  for (const message of messages) {
    const result = JSONRPCMessageSchema.safeParse(message);
    if (!result.success) return refuse(400, -32700, 'Parse error: Invalid JSON-RPC message');
    parsed.push(result.data);
  }
  // The method is read first: the SDK's test is a parse of the whole message, which every tools/call paid for.
  if (parsed.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message))) {
    if (parsed.length > 1) return refuse(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  } else {
    const version = headers.get('mcp-protocol-version');
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
      return refuse(400, SERVER_ERROR, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`);
    }
  }
  const deliveries = parsed.map((message, i): Delivery => {
    const problem = problems[i];
    return problem !== null && 'id' in message && 'method' in message
      ? { message, refusal: badParamsAnswer(message as JSONRPCRequest, problem) }
      : { message };
  });
  const answers = await transport.exchange(deliveries, exchange);
  // Nothing to answer: a 202 without a body, which says so with Content-Length 0.
  if (answers.length === 0) return new Answer(202, [], Buffer.alloc(0));
  return new Answer(200, [['content-type', RPC_JSON]], answers.length === 1 ? answers[0] : jsonArrayOf(answers));
}

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c));

/** A batch's answers as one JSON array: `[`, the answers' bytes joined by `,`, `]`. */
function jsonArrayOf(answers: Array<Buffer<ArrayBuffer>>): Buffer<ArrayBuffer> {
  return Buffer.concat([OPEN, ...answers.flatMap((answer, i) => (i ? [COMMA, answer] : [answer])), CLOSE]);
}
