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
} from '@modelcontextprotocol/sdk/types.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ApiError } from '../errors/api-error.js';
import { assertStorableText } from '../errors/storable-text.js';
import { errorBody } from '../errors/translate.js';
import { KNOWLEDGE_DIR, parseFrontmatter } from '../knowledge/knowledge.content.js';
import { OPENAPI_VERSION } from '../rest/openapi.js';
import { toolSchemas, type JsonObjectSchema } from './mcp.schemas.js';
import { ASSISTANT_TOOLS, type AssistantTool } from './mcp.tools.js';

/** Runs a tool's REST route on the core: query parameters, path values → status and body (with request_id). */
export type RouteRunner = (
  operationId: string,
  input: { search: URLSearchParams; pathValues: Record<string, string> },
) => Promise<{ body: Record<string, unknown> }>;

/** What turns a thrown error into the §7 facts for a tool error. */
export interface ToolErrorContext {
  requestId: string;
  baseUrl: string;
  /** Unknown errors are logged by the caller and come back as internal_error. */
  toApiError: (error: unknown) => ApiError;
}

export interface PreparedTool extends AssistantTool {
  inputSchema: JsonObjectSchema;
  outputSchema: JsonObjectSchema;
  /** Inputs that are the route's path parameters (a venue's slug, slashes and all). */
  pathParams: string[];
}

/** The tool table with its schemas, derived once from the OpenAPI document. */
export function prepareTools(doc: OpenAPIV3_1.Document): PreparedTool[] {
  return ASSISTANT_TOOLS.map((tool) => ({ ...tool, ...toolSchemas(doc, tool) }));
}

/**
 * Tool arguments as the route's REST parameters: arrays comma-joined, scalars as text, path parameters apart. Text
 * PostgreSQL cannot store is refused first, naming the argument, as REST and GraphQL refuse it: URLSearchParams would
 * quietly turn an unpaired surrogate into U+FFFD and the route would look for that.
 */
export function toRouteInput(tool: PreparedTool, args: Record<string, unknown>): { search: URLSearchParams; pathValues: Record<string, string> } {
  assertStorableText(args, 'arguments');
  const search = new URLSearchParams();
  const pathValues: Record<string, string> = {};
  const pathParams = new Set(tool.pathParams);
  const values = { ...args };
  if (tool.limit) {
    if (values.limit === undefined || values.limit === null) values.limit = tool.limit.default;
    else if (typeof values.limit === 'number' && values.limit > tool.limit.max) {
      throw new ApiError('invalid_parameters', {
        problems: [
          { param: 'limit', problem: `must be at most ${tool.limit.max} (assistant tools return at most ${tool.limit.max} per call, §8.6)` },
        ],
      });
    }
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (pathParams.has(name)) pathValues[name] = text;
    else search.set(name, text);
  }
  return { search, pathValues };
}

/** A tool error: the §7 code, param, hint and seconds to wait, as text for the model and as structured data. */
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
 * One MCP server (the SDK's low-level Server, so tool schemas are the derived JSON Schemas as they are) whose tools run
 * through `callTool`: in process on the core, or forwarded to a running server (stdio bridge).
 */
export function createAssistantServer(
  tools: PreparedTool[],
  callTool: (tool: PreparedTool, args: Record<string, unknown>) => Promise<CallToolResult>,
): Server {
  const server = new Server(
    { name: 'wedding-discovery', title: 'Wedding Discovery (venues, vendors, costs, planning)', version: OPENAPI_VERSION },
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
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; see tools/list.`);
    return callTool(tool, (request.params.arguments ?? {}) as Record<string, unknown>);
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
    const { body } = await run(tool.operationId, toRouteInput(tool, args));
    return { content: [{ type: 'text', text: tool.render(body) }], structuredContent: body };
  } catch (error) {
    return toolError(context.toApiError(error), context);
  }
}
