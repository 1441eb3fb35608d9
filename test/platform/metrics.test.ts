// Prometheus metrics: counters and histograms move with real requests on every surface, labels are bounded (never a
// raw path), and the endpoint lives on its own server (METRICS_PORT) with an optional bearer token.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREACHABLE_POLICY } from '../../src/limits/limits.policy.js';
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

/** The value of one sample line, e.g. `http_requests_total{…}`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
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
});
