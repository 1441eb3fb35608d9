import { getSchema } from './graphql/schema.js';
import { createGraphQLServer } from './graphql/yoga.js';
import { createGraphQLSurface } from './http/graphql-surface.js';
import { createRestSurface } from './rest/rest.http.js';
import { createMcpSurface } from './mcp/mcp.surface.js';
import { createPagesSurface } from './developers/developers.http.js';
import { createSiteSurface } from './site/site.http.js';
import { createRequestContexts } from './app-context.js';
import { createCursorCodec } from './pagination/cursor.js';
import type { AppDeps } from './graphql/context.js';
import { createApiCors } from './http/cors.js';
import { deprecationHeaders } from './http/deprecation.js';
import { createAnswerSteps } from './http/answer-steps.js';
import { createIngress } from './http/ingress.js';
import { createHealthProbe, createHealthSurface } from './http/health.js';
import type { KeyRow } from './auth/api-keys.service.js';
import { createKeyLease } from './auth/key-lease.js';
import { SPEC_POLICY } from './limits/limits.policy.js';
import { createLimits } from './limits/limits.service.js';
import { createMemoryStore } from './limits/memory-store.js';
import { createLimiterStore } from './limits/limits.store.js';
import { createResponseCache } from './cache/response-cache.js';
import { createMetrics } from './observability/metrics.js';
import type { App, AppOptions } from './app-options.js';

export type { App, AppOptions, LimiterOptions } from './app-options.js';

/**
 * Builds the whole service and composes it: the long-lived dependencies, one request-context factory, the surfaces
 * (in the order a request is offered to them), the ordered answer steps and the one ingress. No side effects.
 */
export function createApp(options: AppOptions): App {
  const limiter = options.limiter ?? {};
  const now = options.now ?? (() => new Date());
  const { log, baseUrl } = options;
  const { store, state: limiterStoreState } = createLimiterStore(limiter, { log, now });
  const metrics = options.metrics
    ? createMetrics({
        limiterStoreState,
        outboxBacklog: () => options.prisma.notificationOutbox.count({ where: { deliveredAt: null } }),
      })
    : undefined;
  const limits = createLimits({
    policy: limiter.policy ?? SPEC_POLICY,
    store,
    fallback: createMemoryStore(),
    log,
    onDecision: metrics?.limiterDecision,
  });
  const generation = options.catalogueGeneration ?? (() => 0);
  const responseCache = options.responseCache?.ttlSeconds ? createResponseCache({ ...options.responseCache, generation, now, log }) : undefined;
  const cursors = createCursorCodec(options.cursorSecret);
  const siteUrl = options.publicSiteUrl ?? baseUrl;
  const deps: AppDeps = {
    limits,
    prisma: options.prisma,
    readRows: options.readRows,
    now,
    baseUrl,
    siteUrl,
    cursors,
    log,
    generation,
    responseCache,
  };
  const contexts = createRequestContexts(deps, options.keyLease?.ms ? createKeyLease<KeyRow>(options.keyLease) : undefined);
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const schema = getSchema();
  const yoga = createGraphQLServer({ baseUrl, log, persistedOperations: options.persistedOperations });

  const pages = createPagesSurface(baseUrl, contexts);
  const site = createSiteSurface(contexts);
  const rest = createRestSurface({ schema, execute: yoga.execute, baseUrl, maxBodyBytes, contexts });
  const graphql = createGraphQLSurface({ yoga, baseUrl, maxBodyBytes, contexts, graphiql: pages.graphiql });
  const mcp = createMcpSurface({
    deps,
    contexts,
    maxBodyBytes,
    allowedOrigins: options.mcpAllowedOrigins ?? [],
    operationContract: rest.operationContract,
    runOperation: rest.runOperation,
  });
  const health = createHealthSurface(createHealthProbe({ probe: options.databaseAnswers ?? (() => Promise.resolve(true)), now }));

  const cors = createApiCors(options.corsOrigins);
  // The §9 headers name fixed dates and this service's changelog: built once, not on every deprecated answer.
  const steps = createAnswerSteps({ deprecation: Object.freeze(deprecationHeaders(baseUrl)), cors });
  // REST last: it answers every path no other surface takes (404 route_not_found).
  const surfaces = [pages, site, health, mcp, graphql, rest];
  const ingress = createIngress({ log, trustProxy: limiter.trustProxy ?? false, surfaces, steps, cors, metrics });
  return {
    fetch: (request) => ingress.fetch(request),
    requestListener: ingress.listener,
    limiterStoreState,
    responseCacheState: () => responseCache?.state() ?? 'off',
    metrics,
    close: () => Promise.all([store.close(), limits.fallback.close(), responseCache?.close()]).then(() => undefined),
  };
}
