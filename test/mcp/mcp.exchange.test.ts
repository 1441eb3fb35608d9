// One assistant server for every request (src/mcp/mcp.exchange.ts): each HTTP request's messages reach it under ids of
// the transport's own, so requests that share an id are still answered each with its own answer.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ExchangeTransport } from '../../src/mcp/mcp.exchange.js';
import { createAssistantServer } from '../../src/mcp/mcp.server.js';
import { ASSISTANT_TOOLS } from '../../src/mcp/mcp.tools.js';

const tools = ASSISTANT_TOOLS.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const }, outputSchema: { type: 'object' as const } }));
const call = (id: number | string, name: string) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name, arguments: {} } });

/** A server whose every tool answers with the name of the exchange it ran under, after `delay` ms. */
async function connected() {
  const transport = new ExchangeTransport<{ name: string; delay: number }>();
  const server = createAssistantServer(tools, async (_tool, _args, requestId): Promise<CallToolResult> => {
    const { name, delay } = transport.scopeOf(requestId);
    await new Promise((resolve) => setTimeout(resolve, delay));
    return { content: [{ type: 'text', text: name }] };
  });
  await server.connect(transport);
  return transport;
}

const parsed = (answers: Buffer[]) => answers.map((bytes) => JSON.parse(bytes.toString()) as { id: unknown });
const textOf = (answer: unknown) => (answer as { result: CallToolResult }).result.content[0] as { text: string };

describe('ExchangeTransport', () => {
  it('two requests in flight with the same id each get their own answer, under that id', async () => {
    const transport = await connected();
    const [slow, fast] = (
      await Promise.all([
        transport.exchange([{ message: call(1, 'search_venues') }], { name: 'slow', delay: 30 }),
        transport.exchange([{ message: call(1, 'search_venues') }], { name: 'fast', delay: 0 }),
      ])
    ).map(parsed);
    expect([slow[0].id, textOf(slow[0]).text]).toEqual([1, 'slow']);
    expect([fast[0].id, textOf(fast[0]).text]).toEqual([1, 'fast']);
  });

  it("a batch's answers come in its requests' order, refusals in place, duplicate ids each answered; notifications have none", async () => {
    const transport = await connected();
    const refusal = { jsonrpc: '2.0' as const, id: 'r', error: { code: -32602, message: 'Invalid params: no.' } };
    const answers = await transport.exchange(
      [
        { message: call(7, 'search_venues') },
        { message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
        { message: call('r', 'search_venues'), refusal },
        { message: { jsonrpc: '2.0', id: 7, method: 'ping' } },
        { message: { jsonrpc: '2.0', id: 8, method: 'prompts/list' } },
      ],
      { name: 'batch', delay: 5 },
    );
    expect(parsed(answers)).toEqual([
      { result: { content: [{ type: 'text', text: 'batch' }] }, jsonrpc: '2.0', id: 7 },
      refusal,
      { result: {}, jsonrpc: '2.0', id: 7 },
      { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'Method not found' } },
    ]);
  });

  it('a cancellation is not passed on: every request of an exchange is answered', async () => {
    const transport = await connected();
    const answers = await transport.exchange(
      [{ message: call(1, 'search_venues') }, { message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } }],
      { name: 'kept', delay: 5 },
    );
    expect(textOf(parsed(answers)[0]).text).toBe('kept');
  });

  it('only notifications (or responses a client sent) resolve with no answers', async () => {
    const transport = await connected();
    const none = await transport.exchange(
      [{ message: { jsonrpc: '2.0', id: 3, result: {} } }, { message: { jsonrpc: '2.0', method: 'notifications/initialized' } }],
      {
        name: 'none',
        delay: 0,
      },
    );
    expect(none).toEqual([]);
  });

  it("encodes each answer when the server sends it, then drops what the sent result held, never the tool's own objects", async () => {
    const transport = new ExchangeTransport<null>();
    const body = { data: [{ slug: 'a' }], pagination: { has_more: false } };
    let result: CallToolResult | undefined;
    const sent: unknown[] = [];
    transport.onmessage = (message) => {
      // As the SDK's protocol layer answers: a result object of its own, sent once.
      result = { content: [{ type: 'text', text: 'one venue' }], structuredContent: body };
      const answer = { result, jsonrpc: '2.0' as const, id: (message as { id: number }).id };
      sent.push(answer);
      void transport.send(answer);
    };
    const [bytes] = await transport.exchange([{ message: call(4, 'search_venues') }], null);
    expect(JSON.parse(bytes.toString())).toEqual({
      result: { content: [{ type: 'text', text: 'one venue' }], structuredContent: { data: [{ slug: 'a' }], pagination: { has_more: false } } },
      jsonrpc: '2.0',
      id: 4,
    });
    // The sent result no longer reaches the body (promises the SDK made at the call's start hold it), and the body
    // itself is as the tool left it (the response cache may hold it).
    expect(result).toEqual({ content: undefined, structuredContent: undefined });
    expect(body).toEqual({ data: [{ slug: 'a' }], pagination: { has_more: false } });
    expect(sent).toHaveLength(1);
  });
});
