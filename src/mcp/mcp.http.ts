import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiError } from '../errors/api-error.js';
import { readBody } from '../http/body.js';
import { withJsonBytes } from '../http/responses.js';
import type { Logger } from '../logging/logger.js';
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
  /** Counts a non-tool request (initialize, tools/list, resources) on the IP's keyless budget; throws 429 when refused. */
  admitKeyless: (ip: string) => Promise<void>;
  toApiError: (error: unknown, log: Logger, requestId: string) => ApiError;
}

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

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
      return rpcError(403, -32000, `Origin ${origin} is not allowed.`);
    }
    if (request.method !== 'POST') {
      const response = rpcError(405, -32000, 'This stateless MCP server takes POST only (no SSE stream, no session).');
      response.headers.set('allow', 'POST');
      return response;
    }
    let parsed: unknown;
    try {
      const bytes = await readBody(request, options.maxBodyBytes);
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (error) {
      const apiError = options.toApiError(error, scope.log, scope.requestId);
      if (apiError.code === 'payload_too_large') return rpcError(413, -32600, apiError.message);
      return rpcError(400, -32700, 'Parse error: the body is not JSON.');
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const callsTools = messages.some((m) => (m as { method?: unknown } | null)?.method === 'tools/call');
    // Tool calls are counted per call (their refusal is a tool error); anything else here, per request.
    if (!callsTools) {
      try {
        await options.admitKeyless(scope.ip);
      } catch (error) {
        const apiError = options.toApiError(error, scope.log, scope.requestId);
        return rpcError(429, -32000, apiError.message, apiError.headers ?? {});
      }
    }
    const run = options.runner(scope.ip, scope.requestId, scope.log);
    const context = {
      requestId: scope.requestId,
      baseUrl: options.baseUrl,
      toApiError: (e: unknown) => options.toApiError(e, scope.log, scope.requestId),
    };
    const server = createAssistantServer(options.tools(), (tool, args) => runToolOnCore(tool, args, run, context));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await withJsonBytes(await transport.handleRequest(request, { parsedBody: parsed }));
    } finally {
      void server.close();
    }
  };
}
