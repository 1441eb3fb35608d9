import type { IncomingMessage } from 'node:http';
import type { HeaderReader } from '../graphql/context.js';

/** What the ingress knows of a request's connection (src/http/ingress.ts): node's request, for its socket; none in process. */
export interface ServerContext {
  req?: IncomingMessage;
}

/**
 * The client address keyless limits count by (§8.4). By default the TCP peer: a client cannot choose it.
 * With trustProxy (TRUST_PROXY, one proxy in front that appends to X-Forwarded-For), the last X-Forwarded-For
 * entry, the address that proxy saw; entries before it are the client's own claims and are ignored.
 */
export function clientIp(request: { headers: HeaderReader }, server: ServerContext | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .at(-1);
    if (forwarded) return forwarded;
  }
  return server?.req?.socket?.remoteAddress ?? 'unknown';
}
