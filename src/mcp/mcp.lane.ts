import type { IncomingHttpHeaders } from 'node:http';

/**
 * The MCP POST lane: which POSTs to /mcp src/app-lanes.ts serves straight from node:http, without the Fetch layer.
 *
 * A tool call is a small POST whose answer is the same JSON a REST route gives: built as a Fetch Request and answered
 * as a Fetch Response it paid what REST GETs and GraphQL POSTs no longer pay (docs/performance.md, Levers). The lane
 * reads the body from node's request and runs the same handler (src/mcp/mcp.http.ts); a 200 is written with one
 * writeHead, anything else finished by the same code as every other request (the answer steps, src/http/answer-steps.ts).
 *
 * Which requests: a POST to exactly `/mcp` with a declared Content-Length within the body limit (a larger one is the
 * Fetch path's 413, read no further), no Transfer-Encoding or Content-Encoding, and no Origin (its check and the CORS
 * headers stay on the Fetch path).
 */
export function mcpPostLaneOf(
  method: string | undefined,
  target: string | undefined,
  headers: IncomingHttpHeaders,
  maxBodyBytes: number,
): number | null {
  if (method !== 'POST' || target !== '/mcp') return null;
  if (headers.origin !== undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return null;
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,9}$/.test(declared)) return null;
  const length = Number(declared);
  return length <= maxBodyBytes ? length : null;
}
