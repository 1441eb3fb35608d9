import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '../errors/api-error.js';
import { readBody } from '../http/body.js';
import { withJsonBytes } from '../http/responses.js';
import type { Logger } from '../logging/logger.js';
import { answerBadParams, batchRefusal, isRunnerCall, jsonRpcError, rpcRefusalOf, SERVER_ERROR, type RpcRefusal } from './mcp.messages.js';
import { createAssistantServer, runToolOnCore, type PreparedTool, type RouteRunner } from './mcp.server.js';
import { Response } from '../http/fetch-api.js';

export interface McpHttpOptions {
  /** The tool table with its schemas (built once, on first use). */
  tools: () => PreparedTool[];
  baseUrl: string;
  /** Origins allowed besides the service's own (MCP_ALLOWED_ORIGINS). @default none */
  allowedOrigins: string[];
  maxBodyBytes: number;
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

/** A request refused whole, before the MCP server sees any message of it: JSON-RPC's error response with id null. */
const rpcErrorResponse = (refusal: RpcRefusal) =>
  new Response(JSON.stringify(jsonRpcError(refusal)), {
    status: refusal.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...refusal.headers },
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

/**
 * POST /mcp: the keyless assistant server over Streamable HTTP, stateless (a server and transport per request; JSON
 * responses, no SSE stream). GET and DELETE answer 405: a stateless server offers no standalone stream and no session.
 * DNS-rebinding protection: a request whose Origin is present and neither this service's nor allowed is refused 403.
 */
export function createMcpHttpHandler(options: McpHttpOptions) {
  const ownOrigin = new URL(options.baseUrl).origin;
  const allowed = new Set([ownOrigin, ...options.allowedOrigins]);

  return async (request: Request, scope: { ip: string; requestId: string; log: Logger }): Promise<Response> => {
    const origin = request.headers.get('origin');
    if (origin !== null && !allowed.has(origin) && !isLoopbackSameOrigin(origin, request.url)) {
      return rpcErrorResponse({ status: 403, code: SERVER_ERROR, message: `Origin ${origin} is not allowed.` });
    }
    if (request.method !== 'POST') {
      const message = 'This stateless MCP server takes POST only (no SSE stream, no session).';
      return rpcErrorResponse({ status: 405, code: SERVER_ERROR, message, headers: { allow: 'POST' } });
    }
    let parsed: unknown;
    try {
      parsed = jsonOf(await readBody(request, options.maxBodyBytes));
    } catch (error) {
      return rpcErrorResponse(rpcRefusalOf(options.toApiError(error, scope.log, scope.requestId)));
    }
    const refusal = batchRefusal(request, parsed);
    if (refusal) return rpcErrorResponse(refusal);
    return answer(request, parsed, scope, options);
  };
}

type Scope = { ip: string; requestId: string; log: Logger };

/**
 * Counts and runs an admitted body. Every message counts one keyless request of the IP (§8.4): a tool call the runner
 * will run is counted there, per call, its refusal a tool error (§5.2); every other message is counted here before
 * anything runs, the whole body refused 429 when they do not all fit. A tool call answered without reaching the runner
 * (its request refused by the SDK, its arguments refused by toolArguments) is counted afterwards. The answer carries the
 * X-RateLimit headers as they stand after all of it.
 */
async function answer(request: Request, body: unknown, scope: Scope, options: McpHttpOptions): Promise<Response> {
  const tools = options.tools();
  const toolNames = new Set(tools.map((t) => t.name));
  const messages = Array.isArray(body) ? body : [body];
  const calls = messages.filter((m) => isRunnerCall(m, toolNames)).length;
  let headers: Record<string, string> = {};
  if (calls < messages.length) {
    try {
      headers = await options.admitKeyless(scope.ip, messages.length - calls);
    } catch (error) {
      return rpcErrorResponse(rpcRefusalOf(options.toApiError(error, scope.log, scope.requestId)));
    }
  }
  let ran = 0;
  const runner = options.runner(scope.ip, scope.requestId, scope.log);
  const run: RouteRunner = (operationId, args) => {
    ran++;
    return runner(operationId, args);
  };
  const context = {
    requestId: scope.requestId,
    baseUrl: options.baseUrl,
    toApiError: (e: unknown) => options.toApiError(e, scope.log, scope.requestId),
  };
  const server = createAssistantServer(tools, (tool, args) => runToolOnCore(tool, args, run, context));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  answerBadParams(transport);
  let response: Response;
  try {
    response = await withJsonBytes(await transport.handleRequest(request, { parsedBody: body }));
  } finally {
    void server.close();
  }
  if (calls > 0) headers = await options.countKeyless(scope.ip, Math.max(0, calls - ran));
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
