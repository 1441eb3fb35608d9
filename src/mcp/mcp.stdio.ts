import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION } from '../config/api-version.js';
import { answerBadParams } from './mcp.messages.js';

/**
 * `npm run mcp`: the assistant tools over stdio, as a bridge to a Streamable HTTP endpoint — the running server's
 * /mcp, or an in-process app's (`fetch` given). Every tool, schema, budget and error is the HTTP server's own:
 * nothing is defined twice.
 */
export async function serveStdioBridge(options: { url: string; fetch?: typeof fetch; clientName?: string }): Promise<{ close: () => Promise<void> }> {
  const client = new Client({ name: options.clientName ?? 'wedding-discovery-stdio', version: API_VERSION });
  await client.connect(new StreamableHTTPClientTransport(new URL(options.url), options.fetch ? { fetch: options.fetch } : {}));
  const remote = client.getServerVersion();
  const server = new Server(
    { name: remote?.name ?? 'wedding-discovery', title: remote?.title, version: remote?.version ?? API_VERSION },
    { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: client.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => client.listResources(request.params));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => client.readResource(request.params));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  answerBadParams(transport);
  return {
    close: async () => {
      await server.close();
      await client.close();
    },
  };
}
