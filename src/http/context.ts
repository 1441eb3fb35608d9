import type { Decision } from '../limits/limits.service.js';
import type { HeaderReader, RequestContext, RequestScope, Surface } from '../graphql/context.js';

/** What the limiter decided for the request being served; its headers go on the response (§8.3). */
export interface Admission {
  decision?: Decision;
}

/**
 * One request's context, as its caller asks for it (src/app-context.ts builds it):
 * - `key`: §5.4 then §8, the presented key verified before anything is counted; no key is 401 missing_api_key,
 *   counted on the client IP.
 * - `keyless`: an operation that needs no key (GraphiQL's introspection), counted on the client IP's keyless budget.
 * - `assistant`: one MCP tool call, counted on the IP's assistant budget; its context carries no `scope`, since the
 *   HTTP answer is the /mcp request's, not this execution's.
 */
export interface ContextRequest {
  caller: 'key' | 'keyless' | 'assistant';
  surface: Surface;
  ip: string;
  /** The request's id and log, and what the HTTP layer reads back after serving it. */
  scope: RequestScope;
  /** Where the limiter's decision goes (its headers go on the response); unset for an assistant call. */
  admission?: Admission;
  /** Where a `key` caller's key and X-Idempotency-Key are read. */
  headers?: HeaderReader;
}

/** The one request-context factory, and the keyless admission the pages and unmatched paths use without a context. */
export interface RequestContexts {
  contextFor(request: ContextRequest): Promise<RequestContext>;
  /** §8.4: a request without a key counts against its client IP; refused → 429. */
  admitKeyless(admission: Admission, ip: string): Promise<void>;
}
