import type { IncomingHttpHeaders } from 'node:http';
import { isJsonContentType } from './plain-post.js';

/**
 * The GraphQL POST lane: which POSTs to /graphql src/app-lanes.ts serves straight from node:http, without the Fetch layer.
 *
 * The REST GET lane (src/rest/get-lane.ts) took a route's Fetch Request and Fetch Response off its CPU; a GraphQL POST
 * of the same search still paid them, and reading its body through a Fetch Request on top, so GraphQL fell behind
 * REST by that much (docs/performance.md, Levers). The lane reads the body from node's request, runs the same key
 * check, limits and Yoga execution (plain POSTs, src/graphql/plain-post.ts, as the Fetch path runs them), and writes
 * an answer without errors with one writeHead; everything else is finished by the same code as every other request
 * (the answer steps, src/http/answer-steps.ts).
 *
 * Which requests: a POST to exactly `/graphql` (no query string: GraphQL parameters in the URL are Yoga's to read)
 * with Content-Type application/json, a declared Content-Length within the body limit (a larger one is the Fetch
 * path's 413, read no further), no Transfer-Encoding or Content-Encoding (a chunked body is counted as it streams,
 * an encoded one refused, on the Fetch path) and no Origin (CORS headers).
 */
export function graphqlPostLaneOf(
  method: string | undefined,
  target: string | undefined,
  headers: IncomingHttpHeaders,
  maxBodyBytes: number,
): number | null {
  if (method !== 'POST' || target !== '/graphql') return null;
  if (headers.origin !== undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return null;
  const type = headers['content-type'];
  if (type === undefined || !isJsonContentType(type)) return null;
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,9}$/.test(declared)) return null;
  const length = Number(declared);
  return length <= maxBodyBytes ? length : null;
}
