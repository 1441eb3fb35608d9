// Prometheus metrics: counters and histograms move with real requests on every surface, labels are bounded (never a
// raw path), and the endpoint lives on its own server (METRICS_PORT) with an optional bearer token.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../src/config/env.js';
import { UNREACHABLE_POLICY } from '../../src/limits/limits.policy.js';
import { createLogger } from '../../src/logging/logger.js';
import { createDispatcher } from '../../src/notify/dispatcher.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { createMetricsServer } from '../../src/observability/metrics.http.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { freePort } from '../support/processes.js';

let t: TestApp;
let server: Server;
let port: number;
const TOKEN = 'scrape-token-0123456789';

beforeAll(async () => {
  // Keyless requests: 2 a minute, so the third is refused and counted as such.
  t = await createTestApp({ metrics: true, limits: { ...UNREACHABLE_POLICY, keylessPerMinute: 2 } });
  server = createMetricsServer(t.app.metrics!.registry, { token: TOKEN });
  port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};

/** The value of one sample line, e.g. `http_requests_total{…}` (or `db_pool_max_connections` with no labels); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const start = wanted.length ? `${name}{` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(start) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics', () => {
  it('counts requests by surface, route template or operation name, method and status', async () => {
    const slug = (await t.rest('/api/v1/venues?limit=1')).body.data[0].slug as string;
    expect((await t.rest(`/api/v1/venues/${slug}`)).status).toBe(200);
    expect((await t.rest('/api/v1/venues/no-such-venue')).status).toBe(404);
    expect((await t.graphql('query FrontPage { vendorCategories { slug } }')).status).toBe(200);
    expect((await t.rest('/api/v1/nowhere')).status).toBe(404);
    const text = await scrape();
    const detail = { surface: 'rest', route: '/api/v1/venues/{slug}', method: 'GET' };
    expect(sample(text, 'http_requests_total', { ...detail, status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { ...detail, status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { ...detail, status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { surface: 'graphql', route: 'FrontPage', method: 'POST', status: '200' })).toBe(1);
    expect(sample(text, 'http_requests_total', { surface: 'rest', route: 'unmatched', status: '404' })).toBe(1);
    // Slugs and unknown paths never become label values.
    expect(text).not.toContain(slug);
    expect(text).not.toContain('no-such-venue');
    expect(text).not.toContain('/api/v1/nowhere');
  });

  it('counts limiter decisions by limit and outcome, and shows where limiter state lives', async () => {
    for (let i = 0; i < 3; i++) await t.rest('/api/v1/openapi.json', { key: null });
    const text = await scrape();
    expect(sample(text, 'rate_limit_decisions_total', { limit: 'keyless', outcome: 'allowed', store: 'shared' })).toBe(2);
    expect(sample(text, 'rate_limit_decisions_total', { limit: 'keyless', outcome: 'refused', store: 'shared' })).toBe(1);
    expect(sample(text, 'http_requests_total', { surface: 'rest', route: '/api/v1/openapi.json', status: '429' })).toBe(1);
    expect(sample(text, 'rate_limit_decisions_total', { limit: 'requests', outcome: 'allowed' })).toBeGreaterThanOrEqual(4);
    const state = process.env.TEST_REDIS_URL ? 'closed' : 'memory';
    expect(sample(text, 'rate_limit_store_state', { state })).toBe(1);
    expect(text).toMatch(/^notification_outbox_backlog \d+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('answers only GET /metrics, and only with the token when one is set', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/other`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('times SQL statements and reports the connection pool when scraped', async () => {
    const before = sample(await scrape(), 'db_query_duration_seconds_count');
    expect((await t.rest('/api/v1/venues?limit=2')).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'db_query_duration_seconds_count')).toBeGreaterThan(before);
    expect(sample(text, 'db_pool_max_connections')).toBe(4); // the in-memory test database's pool
    // The request just left its connection in the pool (idle connections close after 10 s).
    expect(sample(text, 'db_pool_connections', { state: 'idle' }) + sample(text, 'db_pool_connections', { state: 'in_use' })).toBeGreaterThan(0);
    expect(text).toMatch(/^db_pool_waiting_queries \d+$/m);
  });

  it('counts webhook delivery attempts by outcome, and the outbox backlog goes down as leads are delivered', async () => {
    const { prisma } = t.db;
    // Only this test's row is due: rows other tests of this database left are marked delivered first.
    await prisma.notificationOutbox.updateMany({ where: { deliveredAt: null }, data: { deliveredAt: new Date() } });
    await prisma.notificationOutbox.create({
      data: { inquiryId: randomUUID(), payload: { inquiry: { id: randomUUID(), kind: 'venue' } }, nextAttemptAt: new Date(0) },
    });
    expect(sample(await scrape(), 'notification_outbox_backlog')).toBe(1);
    const answers = [500, 204]; // down once, then up
    const dispatcher = createDispatcher({
      prisma,
      log: createLogger({ level: 'silent' }),
      url: 'http://receiver.test/leads',
      fetch: async () => new Response(null, { status: answers.shift() }),
      baseDelayMs: 0, // the retry is due at once
      onAttempt: t.app.metrics!.webhookAttempt,
    });
    expect(await dispatcher.runOnce()).toBe(0);
    expect(await dispatcher.runOnce()).toBe(1);
    const text = await scrape();
    expect(sample(text, 'webhook_delivery_attempts_total', { outcome: 'failed' })).toBe(1);
    expect(sample(text, 'webhook_delivery_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(sample(text, 'notification_outbox_backlog')).toBe(0);
  });

  it('past 200 distinct GraphQL operation names, further names count as "other" (clients choose them)', async () => {
    const metrics = createMetrics({ limiterStoreState: () => 'memory', outboxBacklog: async () => 0 });
    const observe = (route: string) => metrics.observeRequest({ surface: 'graphql', route, method: 'POST', status: 200, seconds: 0.01 });
    for (let i = 0; i < 250; i++) observe(`Op${i}`);
    observe('Op0'); // a name seen before the cap keeps its own label
    const text = await metrics.registry.metrics();
    expect(sample(text, 'http_requests_total', { route: 'Op0' })).toBe(2);
    expect(sample(text, 'http_requests_total', { route: 'Op199' })).toBe(1);
    expect(sample(text, 'http_requests_total', { route: 'other' })).toBe(50);
    expect(text).not.toContain('Op200');
  });
});

describe('metrics off (METRICS_PORT unset, the default)', () => {
  it('METRICS_PORT is parsed only when set, and must differ from PORT', () => {
    expect(parseEnv({}).METRICS_PORT).toBeUndefined();
    expect(parseEnv({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(parseEnv({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(() => parseEnv({ METRICS_PORT: 'metrics' })).toThrow(/METRICS_PORT/);
    expect(() => parseEnv({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => parseEnv({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('an app without metrics keeps no registry, and the API never answers /metrics', async () => {
    const plain = await createTestApp({ database: t.db });
    try {
      expect(plain.app.metrics).toBeUndefined();
      expect((await plain.rest('/metrics')).status).toBe(404);
      expect((await t.rest('/metrics')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
