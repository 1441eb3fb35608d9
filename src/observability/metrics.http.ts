// The metrics endpoint: GET /metrics on its own port (METRICS_PORT), so it is never exposed with the API; optionally
// behind a bearer token (METRICS_TOKEN) where that port is reachable by more than the scraper.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.replace(/^Bearer /i, '') ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export function createMetricsServer(registry: Registry, options: { token?: string } = {}): Server {
  return createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: scrape GET /metrics\n');
      return;
    }
    if (options.token && !tokenMatches(request.headers.authorization, options.token)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
}
