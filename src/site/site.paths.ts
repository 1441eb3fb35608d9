/**
 * The paths the public site answers (src/site/site.http.ts): its pages, and the demo catalogue's photos under /media/.
 * Apart from the page table so the metrics (src/observability/metrics.ts) can name the surface without loading it.
 */
const PREFIXES = ['/venues/', '/vendors/', '/wedding-costs/', '/blog/', '/media/'];

export const isSitePath = (path: string): boolean =>
  path === '/venues' || path === '/wedding-costs' || PREFIXES.some((prefix) => path.startsWith(prefix));
