import type { IncomingHttpHeaders } from 'node:http';

/**
 * The REST GET lane: which requests src/app-lanes.ts serves straight from node:http, without the Fetch layer.
 *
 * A small read (the pricing estimate, a regional range) spent a large share of its CPU building a Fetch Request from
 * node's request (URL, Headers, an AbortController and its listeners) and turning a Fetch Response back into node's
 * writes (docs/performance.md, Levers). A REST GET needs none of it: its path and query select the route, a few headers
 * the key and limits. The lane reads those from node's request and writes a plain answer with one writeHead; an
 * error or a compressed body is finished by the same code as every other request (the answer steps, src/http/answer-steps.ts), with a Fetch
 * Request made from node's then.
 *
 * Which requests: GET (HEAD makes a GET of its own, so it stays on the Fetch path) to a path of /api/v1/ in letters,
 * digits, `-`, `_`, `~` and `/` (so there is nothing URL parsing would re-encode or resolve: no `%`, no `.` segment, no
 * `\`), a query of printable ASCII other than `#` (URLSearchParams reads it as the URL's searchParams would), no
 * Origin (CORS headers) and no If-None-Match (a 304). Everything else takes the Fetch path, unchanged.
 */
export interface LaneTarget {
  path: string;
  query: string;
}

const LANE_PATH = /^\/api\/v1\/[A-Za-z0-9_~/-]*$/;
const LANE_QUERY = /^[\x21\x22\x24-\x7e]*$/;

/** The request's path and query when it can take the lane; null when it takes the Fetch path. */
export function restGetLaneOf(method: string | undefined, target: string | undefined, headers: IncomingHttpHeaders): LaneTarget | null {
  if (method !== 'GET' || target === undefined || headers.origin !== undefined || headers['if-none-match'] !== undefined) return null;
  const cut = target.indexOf('?');
  const path = cut < 0 ? target : target.slice(0, cut);
  const query = cut < 0 ? '' : target.slice(cut + 1);
  return LANE_PATH.test(path) && LANE_QUERY.test(query) ? { path, query } : null;
}
