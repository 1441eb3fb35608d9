import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  type JSONRPCRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiError } from '../errors/api-error.js';
import type { HeaderReader } from '../graphql/context.js';

/**
 * Most messages one POST may carry as a JSON-RPC batch: the SDK's own cap (it answers the same -32600 past it), checked
 * here first because every message of a batch is counted on the keyless budget before the SDK sees it.
 */
export const MAX_BATCH_MESSAGES = 100;

/** MCP 2025-06-18 removed JSON-RPC batching; every later revision keeps it out. */
const BATCHLESS_SINCE = '2025-06-18';

/** A refusal in JSON-RPC terms: its code and message, and the HTTP status (and headers) of a request refused whole. */
export interface RpcRefusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/** JSON-RPC's implementation-defined server error (-32000 to -32099): a refusal that is not about the message. */
export const SERVER_ERROR = -32000;

/**
 * A catalogue error (src/errors/classify.ts) as a JSON-RPC refusal: a body too large is an invalid request (-32600), a
 * body that is not JSON a parse error (-32700, JSON-RPC §5.1), anything else a server error (-32000) with its status.
 */
export function rpcRefusalOf(error: ApiError): RpcRefusal {
  if (error.code === 'payload_too_large') return { status: 413, code: ErrorCode.InvalidRequest, message: error.message };
  if (error.code === 'invalid_json') return { status: 400, code: ErrorCode.ParseError, message: 'Parse error: the body is not JSON.' };
  return { status: error.status, code: SERVER_ERROR, message: error.message, ...(error.headers ? { headers: error.headers } : {}) };
}

/**
 * The JSON-RPC surface's one renderer: an error response (JSON-RPC 2.0 §5.1), its keys in the order the MCP SDK
 * writes its own, so ours read as its do: an answer to one request names its id first (the SDK's Protocol), the
 * refusal of a whole HTTP request, which answers no message, ends with id null (the SDK's transport).
 */
export function jsonRpcError(refusal: RpcError, id: JSONRPCRequest['id']): { jsonrpc: '2.0'; id: JSONRPCRequest['id']; error: RpcError };
export function jsonRpcError(refusal: RpcError): { jsonrpc: '2.0'; error: RpcError; id: null };
export function jsonRpcError(refusal: RpcError, id?: JSONRPCRequest['id']) {
  const error = { code: refusal.code, message: refusal.message };
  return id === undefined ? { jsonrpc: '2.0', error, id: null } : { jsonrpc: '2.0', id, error };
}

type RpcError = Pick<RpcRefusal, 'code' | 'message'>;

type Message = { method?: unknown; params?: unknown };
const asMessage = (value: unknown): Message => (value && typeof value === 'object' ? (value as Message) : {});

/** The protocol revision the request speaks: its MCP-Protocol-Version header, or what its initialize offers. */
function protocolVersionOf(headers: HeaderReader, messages: unknown[]): string | null {
  const header = headers.get('mcp-protocol-version');
  if (header !== null) return header;
  const initialize = messages.map(asMessage).find((m) => m.method === 'initialize');
  const offered = asMessage(initialize?.params) as { protocolVersion?: unknown };
  return typeof offered.protocolVersion === 'string' ? offered.protocolVersion : null;
}

/**
 * What JSON-RPC 2.0 and MCP say of a batch (an array body), before it is counted or run: an empty one is an invalid
 * request (JSON-RPC §6), so is one sent under a revision without batching, and one longer than MAX_BATCH_MESSAGES.
 * A single message (not an array) passes.
 */
export function batchRefusal(headers: HeaderReader, body: unknown): RpcRefusal | null {
  if (!Array.isArray(body)) return null;
  if (body.length === 0) return { status: 400, code: -32600, message: 'Invalid Request: an empty batch holds no message to answer.' };
  const version = protocolVersionOf(headers, body);
  // Revisions are dates: compared as text. An unknown value is left to the SDK, which refuses unsupported versions.
  if (version !== null && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= BATCHLESS_SINCE) {
    return {
      status: 400,
      code: -32600,
      message: `Invalid Request: JSON-RPC batching is not supported in MCP protocol version ${version} (removed in ${BATCHLESS_SINCE}); send one message per request.`,
    };
  }
  if (body.length > MAX_BATCH_MESSAGES) {
    return {
      status: 400,
      code: -32600,
      message: `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; this one has ${body.length}.`,
    };
  }
  return null;
}

type RequestSchema = {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: ReadonlyArray<{ code: string; path: PropertyKey[]; expected?: string }> } };
};

/** The SDK's schemas of the requests this server answers, by method: what it would parse them with. */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
]);

const EXPECTED: Record<string, string> = {
  object: 'an object',
  record: 'an object',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
};

/**
 * Why a request's params would fail the SDK's schema, in words of ours, or null when they pass (or the method is not
 * one of ours). The SDK would answer -32603 with the schema library's issue list, and tools/call arguments that are
 * not an object are invalid params (-32602) by JSON-RPC §5.1: this says which member and what it must be.
 */
export function paramsProblem(message: unknown): string | null {
  const schema = REQUEST_SCHEMAS.get(asMessage(message).method as string);
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue.path.map(String).join('.') || 'params';
  if (where === 'params.arguments') return 'Invalid params: arguments must be an object of argument names to values (see the tool’s inputSchema).';
  const expected = issue.code === 'invalid_type' && issue.expected ? EXPECTED[issue.expected] : undefined;
  return `Invalid params: ${where} ${expected ? `must be ${expected}` : 'is not valid'}.`;
}

/**
 * A tools/call the tool runner will count (§5.2): well formed (`problem`, its paramsProblem, is null) and naming a tool
 * of the table. Anything else is not one.
 */
export function isRunnerCall(message: unknown, problem: string | null, toolNames: ReadonlySet<string>): boolean {
  const { method, params } = asMessage(message);
  return method === 'tools/call' && problem === null && toolNames.has((params as { name: string }).name);
}

/** The -32602 answer to a request whose params the SDK's schemas refuse (`problem`, its paramsProblem). */
export function badParamsAnswer(message: JSONRPCRequest, problem: string) {
  return jsonRpcError({ code: ErrorCode.InvalidParams, message: problem }, message.id);
}

/**
 * Answers a request whose params the SDK's schemas refuse with -32602 and a message of ours, so the schema library's
 * text never reaches a client (the stdio bridge; /mcp refuses them as it hands messages over). Call after the server
 * is connected: the server sets the transport's onmessage, this wraps it.
 */
export function answerBadParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('answerBadParams: connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message) : null;
    if (problem === null) return deliver(message, extra);
    void transport
      .send(badParamsAnswer(message as JSONRPCRequest, problem))
      .catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
}
