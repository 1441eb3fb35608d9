import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { createApiKey } from '../../src/auth/api-keys.service.js';
import { adminQuery, databaseUrl } from '../support/database.js';
import { freePort, startServer } from '../support/processes.js';

const redisUrl = process.env.TEST_REDIS_URL;
const adminUrl = process.env.TEST_DATABASE_URL;
const enabled = Boolean(redisUrl && adminUrl);
if (!enabled) console.warn('[limits.two-nodes] skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL (two servers share one PostgreSQL and one Redis)');

interface PostgresTemplate {
  templates: { seeded: string };
  /** Databases named with it are dropped by global teardown if this file is killed. */
  clonePrefix: string;
}

/** A node as `npm start` runs it; ready once it prints its banner. */
function startNode(env: Record<string, string>) {
  const node = startServer({ LOG_LEVEL: 'warn', ...env });
  return { ready: node.waitFor('ready in', 90_000), stop: node.stop, output: node.output };
}

describe.skipIf(!enabled)('two server processes on one Redis and one PostgreSQL', () => {
  const nodes: ReturnType<typeof startNode>[] = [];
  const ports: number[] = [];
  let scratch = '';
  let key = '';
  beforeAll(async () => {
    // The seeded template global-setup built for this run (older and newer shapes of what it provides).
    const provided = inject('testDatabases') as unknown as { postgres?: PostgresTemplate } & Partial<PostgresTemplate>;
    const setup = provided.postgres ?? (provided as PostgresTemplate);
    if (!setup.templates?.seeded) throw new Error('expected the PostgreSQL test templates');
    scratch = `${setup.clonePrefix}nodes_${randomBytes(4).toString('hex')}`;
    await adminQuery(adminUrl!, `CREATE DATABASE "${scratch}" TEMPLATE "${setup.templates.seeded}"`);
    const url = databaseUrl(adminUrl!, scratch);
    const db = await openDatabase({ databaseUrl: url, migrate: false });
    try {
      key = (await createApiKey({ tier: 'free', name: 'two nodes' }, db)).key;
    } finally {
      await db.close();
    }
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ports.push(port);
      nodes.push(
        startNode({
          PORT: String(port),
          BASE_URL: `http://127.0.0.1:${port}`,
          DATABASE_URL: url,
          REDIS_URL: redisUrl!,
          CURSOR_SECRET: 'two-nodes-cursor-secret-0123456789abcdef',
        }),
      );
    }
    await Promise.all(nodes.map((n) => n.ready));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    if (scratch) await adminQuery(adminUrl!, `DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
  });

  it('15 concurrent requests of one Free key spread over both nodes and both surfaces: exactly 10 pass', async () => {
    const requests = Array.from({ length: 15 }, (_v, i) => {
      const base = `http://127.0.0.1:${ports[i % 2]}`;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      return i % 4 < 2
        ? fetch(`${base}/api/v1/venues?limit=1`, { headers })
        : fetch(`${base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ venues(first: 1) { totalCount } }' }) });
    });
    const responses = await Promise.all(requests);
    const statuses = responses.map((r) => r.status);
    await Promise.all(responses.map((r) => r.text()));
    expect(
      statuses.filter((s) => s === 200),
      `${statuses}\n${nodes.map((n) => n.output()).join('\n')}`,
    ).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Either node now answers 429 with the shared count.
    for (const port of ports) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/venues?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(429);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await res.text();
    }
  });
});
