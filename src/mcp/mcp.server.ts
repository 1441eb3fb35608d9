import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors/api-error.js';
import { errorBody } from '../http/responses.js';
import { KNOWLEDGE_DIR, parseFrontmatter } from '../knowledge/knowledge.content.js';
import { API_VERSION } from '../config/api-version.js';
import { toolSchemas, type JsonObjectSchema, type ToolContract } from './mcp.schemas.js';
import { ASSISTANT_TOOLS, type AssistantTool } from './mcp.tools.js';

/** Runs a tool's route on the core with the tool's typed arguments, by REST name → its body (with request_id). */
export type RouteRunner = (operationId: string, args: Record<string, unknown>) => Promise<{ body: Record<string, unknown> }>;

/** What turns a thrown error into the §7 facts for a tool error. */
export interface ToolErrorContext {
  requestId: string;
  baseUrl: string;
  /** The error classified (src/errors/classify.ts); unknown errors are logged by the caller and come back as internal_error. */
  toApiError: (error: unknown) => ApiError;
}

export interface PreparedTool extends AssistantTool {
  inputSchema: JsonObjectSchema;
  outputSchema: JsonObjectSchema;
}

/** The tool table with its schemas, each made once from its route's contract. */
export function prepareTools(contractOf: (operationId: string) => ToolContract): PreparedTool[] {
  return ASSISTANT_TOOLS.map((tool) => ({ ...tool, ...toolSchemas(contractOf(tool.operationId), tool) }));
}

/**
 * A tool's arguments as its route takes them: typed, by REST name (the route refuses what REST refuses, in the same
 * words), with the tool's own page size. Text PostgreSQL cannot store is the route's to refuse (runRoute), as it refuses
 * it for REST.
 */
export function toolArguments(tool: PreparedTool, args: Record<string, unknown>): Record<string, unknown> {
  if (!tool.limit) return args;
  if (args.limit === undefined || args.limit === null) return { ...args, limit: tool.limit.default };
  if (typeof args.limit === 'number' && args.limit > tool.limit.max) {
    throw new ApiError('invalid_parameters', {
      problems: [{ param: 'limit', problem: `must be at most ${tool.limit.max} (assistant tools return at most ${tool.limit.max} per call, §8.6)` }],
    });
  }
  return args;
}

/**
 * The MCP surface's one renderer, a tool error (§5.2): the §7 envelope's facts (code, param, hint) and the seconds to
 * wait, as text for the model and as structured data.
 */
export function toolError(error: ApiError, context: ToolErrorContext): CallToolResult {
  const body = errorBody(error, context.requestId, context.baseUrl);
  const retryAfter = error.headers?.['Retry-After'];
  const text = [
    `${body.code}: ${body.message}`,
    body.param ? `(parameter: ${body.param})` : '',
    body.hint ?? '',
    retryAfter ? `Retry after ${retryAfter} s.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: { ...body, ...(retryAfter ? { retry_after: Number(retryAfter) } : {}) } },
  };
}

/** The planning notes as resources: stable URIs `knowledge://notes/<note slug>`. */
const NOTE_URI = 'knowledge://notes/';

async function listNotes(): Promise<Array<{ slug: string; title: string; description?: string }>> {
  const { readdir } = await import('node:fs/promises');
  const files = (await readdir(KNOWLEDGE_DIR, { recursive: true })).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(
    files.map(async (file) => {
      const slug = file.split('\\').join('/').replace(/\.md$/, '');
      const { attributes } = parseFrontmatter(await readFile(join(KNOWLEDGE_DIR, file), 'utf8'), file);
      return { slug, title: attributes.title ?? slug, description: attributes.summary };
    }),
  );
}

/**
 * The assistant server, made once per app and serving every request (src/mcp/mcp.http.ts); `callTool` gets the id the
 * request is known by on the server's transport, which tells what the call runs under.
 *
 * The SDK's low-level Server rather than McpServer: McpServer's registerTool parses arguments with the tool's zod schema
 * before the tool runs and answers a refusal as its own text ("Input validation error: …" and the issues), while a tool
 * refuses what its REST route refuses, with the route's code, parameter and hint (§5.2, toolError); it answers an
 * unknown tool as a tool result rather than -32602; and it takes output schemas only as zod, parsing every result with
 * them. Here the tools' JSON Schemas are the ones derived from the OpenAPI document (mcp.schemas.ts), whose bounds come
 * from the modules' zod schemas (parsedBy), and the route enforces them. The SDK change that would let the tools move
 * to registerTool is proposed in docs/upstream.md.
 */
export function createAssistantServer(
  tools: PreparedTool[],
  callTool: (tool: PreparedTool, args: Record<string, unknown>, requestId: RequestId) => Promise<CallToolResult>,
): Server {
  const server = new Server(
    { name: 'wedding-discovery', title: 'Wedding Discovery (venues, vendors, costs, planning)', version: API_VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions:
        'Read-only tools over a wedding venue and vendor catalogue, cost estimates and planning advice. Prices of venues cover the whole minimum stay. Nothing here sends an inquiry or creates data.',
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; see tools/list.`);
    return callTool(tool, (request.params.arguments ?? {}) as Record<string, unknown>, extra.requestId);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await listNotes()).map((n) => ({
      uri: `${NOTE_URI}${n.slug}`,
      name: n.slug,
      title: n.title,
      ...(n.description ? { description: n.description } : {}),
      mimeType: 'text/markdown',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const slug = uri.startsWith(NOTE_URI) ? uri.slice(NOTE_URI.length) : '';
    if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(slug)) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}; see resources/list.`);
    const text = await readFile(join(KNOWLEDGE_DIR, `${slug}.md`), 'utf8').catch(() => null);
    if (text === null) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}; see resources/list.`);
    return { contents: [{ uri, mimeType: 'text/markdown', text }] };
  });
  return server;
}

/** Runs a tool in process: its route on the core, the body as structuredContent, a short text beside it. */
export async function runToolOnCore(
  tool: PreparedTool,
  args: Record<string, unknown>,
  run: RouteRunner,
  context: ToolErrorContext,
): Promise<CallToolResult> {
  try {
    const { body } = await run(tool.operationId, toolArguments(tool, args));
    return { content: [{ type: 'text', text: tool.render(body) }], structuredContent: body };
  } catch (error) {
    return toolError(context.toApiError(error), context);
  }
}
