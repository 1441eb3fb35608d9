// `npm run -s mcp` as a real process, driven by the SDK's client over stdio.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { adminQuery, databaseUrl } from '../support/database.js';
import { listenApp, repoRoot } from '../support/processes.js';

const postgres = inject('testDatabases').postgres;

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'desktop-assistant', version: '1.0.0' });
  // Vite puts its own BASE_URL ("/") into the test process's environment; the script needs a real origin.
  const childEnv = Object.fromEntries(
    Object.entries({ ...process.env, BASE_URL: 'http://127.0.0.1', ...env }).filter(([, v]) => v !== undefined),
  ) as Record<string, string>;
  await client.connect(new StdioClientTransport({ command: 'npm', args: ['run', '-s', 'mcp'], cwd: repoRoot, env: childEnv, stderr: 'pipe' }));
  return client;
}

describe('npm run -s mcp (stdio)', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listenApp>>;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listenApp(t.app);
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('forwards to a running server: the same tools and answers as REST, errors included', async () => {
    const client = await stdioClient({ MCP_SERVER_URL: `http://127.0.0.1:${port}/mcp`, DATABASE_URL: '' });
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(10);
      const result = await client.callTool({ name: 'search_venues', arguments: { state: 'texas', limit: 3 } });
      const rest = (await t.rest('/api/v1/venues?state=texas&limit=3')).body;
      expect((result.structuredContent as any).data).toEqual(rest.data);
      const refused = await client.callTool({ name: 'search_venues', arguments: { limit: 80 } });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as any).error).toMatchObject({ code: 'invalid_parameters', param: 'limit' });
      const malformed = client.callTool({ name: 'search_venues', arguments: [1] as unknown as Record<string, unknown> });
      await expect(malformed).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('arguments must be an object') });
      await expect(malformed).rejects.not.toMatchObject({ message: expect.stringMatching(/expected record|invalid_type/) });
      expect((await client.listResources()).resources.length).toBeGreaterThanOrEqual(40);
    } finally {
      await client.close();
    }
  });

  describe.skipIf(!postgres)('on PostgreSQL (DATABASE_URL): tools run in the stdio process', () => {
    let name = '';
    afterAll(async () => {
      if (name) await adminQuery(postgres!.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
    it('answers from the database directly', async () => {
      name = `${postgres!.clonePrefix}${randomBytes(6).toString('hex')}`;
      await adminQuery(postgres!.adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${postgres!.templates.seeded}"`);
      const client = await stdioClient({ DATABASE_URL: databaseUrl(postgres!.adminUrl, name), MCP_SERVER_URL: '' });
      try {
        const result = await client.callTool({ name: 'list_vendor_categories', arguments: {} });
        expect((result.structuredContent as any).data).toHaveLength(11);
      } finally {
        await client.close();
      }
    });
  });
});
