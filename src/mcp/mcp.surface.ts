import { ROUTE_DOCUMENTS } from '../errors/classify.js';
import { translate } from '../errors/translate.js';
import type { AppDeps, RequestContext } from '../graphql/context.js';
import type { RequestContexts } from '../http/context.js';
import type { HttpSurface } from '../http/ingress.js';
import { checkKeylessBatch, countKeyless } from '../limits/limits.service.js';
import { createMcpHttpHandler } from './mcp.http.js';
import { prepareTools, type PreparedTool } from './mcp.server.js';
import type { ToolContract } from './mcp.schemas.js';

/**
 * /mcp, §5.2: the keyless assistant server. Each tool call is one keyless request of the client IP, under its budgets,
 * run through its route's document (`runOperation`, the REST surface's) with a context of its own.
 */
export function createMcpSurface(options: {
  deps: AppDeps;
  contexts: RequestContexts;
  maxBodyBytes: number;
  allowedOrigins: string[];
  /** A route's contract, which its tool's schemas are made from (the REST surface's). */
  operationContract: (operationId: string) => ToolContract;
  runOperation: (operationId: string, args: Record<string, unknown>, context: RequestContext) => Promise<Record<string, unknown>>;
}): HttpSurface {
  const { deps, contexts } = options;
  let tools: PreparedTool[] | undefined;
  const mcp = createMcpHttpHandler({
    tools: () => (tools ??= prepareTools(options.operationContract)),
    baseUrl: deps.baseUrl,
    allowedOrigins: options.allowedOrigins,
    admitKeyless: (ip, count) => checkKeylessBatch(ip, count, deps),
    countKeyless: (ip, count) => countKeyless(ip, count, deps),
    toApiError: (e, log, requestId) => translate(e, log, requestId, undefined, ROUTE_DOCUMENTS),
    runner: (ip, requestId, log) => async (operationId, args) => {
      const context = await contexts.contextFor({ caller: 'assistant', surface: 'mcp', ip, scope: { requestId, log } });
      const body = await options.runOperation(operationId, args, context);
      return { body: { ...body, request_id: requestId } };
    },
  });
  return {
    accepts: (path) => path === '/mcp',
    async serve(visit) {
      const { method, headers, scope, ip } = visit;
      const url = () => visit.href;
      return method === 'POST'
        ? mcp.post({ headers, url, body: () => visit.body(options.maxBodyBytes) }, { ip, requestId: scope.requestId, log: scope.log })
        : mcp.other({ headers, url });
    },
  };
}
