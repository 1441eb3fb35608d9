/**
 * The realistic cases (issue "Figures a user can believe"): the stack-floor cases (bench/cases.ts: one hot key, logs
 * off, no Accept-Encoding) as a browser-like client meets the service. Every request carries `Accept-Encoding: gzip,
 * br` and an allowed `Origin`, and a key and a client address taken in turn from a pool of at least 500, so that each
 * key sends at most about one request a second (the spec's 60 a minute) and the key lease (1 s by default) rarely holds
 * a key's row from one of its requests to the next. The API runs as deployed: LOG_LEVEL=info with stdout a pipe the
 * bench reads, the default key lease, CORS_ORIGINS naming the origin, behind one trusted proxy (TRUST_PROXY=1: the
 * per-address counts go by the rotated X-Forwarded-For), and the response cache at its default TTL for MIXr-warm, off
 * for everything else. BENCH=1 stays: the limiter checks and counts every request on every key and address as it
 * would, with numbers out of reach, since no load test keeps to 20 venue details a key a day (R4's 20 venues with
 * photos count 20 each). Their baselines do what any real endpoint serving that request must
 * (bench/realistic-baseline.ts).
 */
import { benchCases, type Answer, type BenchCase, type Discovery } from './cases.js';

/** The browser page's origin, allowed by the realistic API (CORS_ORIGINS, MCP_ALLOWED_ORIGINS) and baselines. */
export const REALISTIC_ORIGIN = 'https://planner.wedding-bench.example';
/** What every realistic request sends besides its key and address. */
export const REALISTIC_HEADERS: Readonly<Record<string, string>> = { 'accept-encoding': 'gzip, br', origin: REALISTIC_ORIGIN };
/** Keys (and client addresses) rotated by default: enough for about 1 request a second each up to 10,000 req/s. */
export const REALISTIC_KEYS = 10_000;
/** The fewest keys --keys accepts. */
export const REALISTIC_KEYS_MIN = 500;

/** A distinct client address per turn of the rotation (10.0.0.0/8, as a proxy would append it). */
export function clientAddress(turn: number): string {
  const n = turn + 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** The stack floor's check, and the answer compressed as asked (br) with the origin allowed. */
function asBrowserSees(check: (answer: Answer) => string | null): (answer: Answer) => string | null {
  return (answer) =>
    check(answer) ??
    (answer.headers.get('content-encoding') !== 'br' ? `content-encoding ${answer.headers.get('content-encoding') ?? 'none'}, not br` : null) ??
    (answer.headers.get('access-control-allow-origin') !== REALISTIC_ORIGIN ? 'no Access-Control-Allow-Origin for the origin' : null);
}

/**
 * B0r, B1r, B1gr, R1r, M1r, R4r: the stack floor's B0, B1, B1g, R1, M1, R4 with the realistic client's headers (the
 * load adds the key and address), compared R1r and M1r with B1r, R4r with B1gr.
 */
export function realisticCases(d: Discovery): BenchCase[] {
  const floor = new Map(benchCases(d).map((c) => [c.id, c]));
  const from = (id: string, over: Partial<BenchCase> & Pick<BenchCase, 'id' | 'label'>): BenchCase => {
    const c = floor.get(id)!;
    return {
      ...c,
      ...over,
      request: { ...c.request, headers: { ...c.request.headers, ...REALISTIC_HEADERS } },
      check: asBrowserSees(c.check),
    };
  };
  return [
    from('B0', { id: 'B0r', label: 'static R1 body; log line, compression, CORS (no database, no key)', sameDataAs: 'B1r' }),
    from('B1', {
      id: 'B1r',
      label: 'hand-written SQL, R1 body; key by SHA-256, log line, compression, CORS',
      sameDataAs: 'B1r',
      bodyOf: 'R1r',
      statements: 2,
    }),
    from('B1g', {
      id: 'B1gr',
      label: 'hand-written SQL, R4 body; key by SHA-256, log line, compression, CORS',
      sameDataAs: 'B1gr',
      bodyOf: 'R4r',
      statements: 2,
    }),
    from('R1', { id: 'R1r', label: 'R1 as a browser sends it', sameDataAs: 'B1r' }),
    from('M1', { id: 'M1r', label: 'M1 (assistant search_venues) as a browser sends it', sameDataAs: 'B1r' }),
    from('R4', { id: 'R4r', label: 'R4 (GraphQL, 20 venues with lists) as a browser sends it', sameDataAs: 'B1gr' }),
  ];
}

/** The realistic API's environment, from the stack floor's (cache: the response cache at its default TTL). */
export function realisticApiEnv(floor: NodeJS.ProcessEnv, options: { responseCache: boolean }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...floor,
    LOG_LEVEL: 'info',
    CORS_ORIGINS: REALISTIC_ORIGIN,
    MCP_ALLOWED_ORIGINS: REALISTIC_ORIGIN,
    TRUST_PROXY: '1',
  };
  // The default key lease and cache TTL: nothing set. A pretty terminal format is never chosen for a pipe.
  for (const name of ['API_KEY_LEASE_MS', 'LOG_FORMAT', ...(options.responseCache ? ['RESPONSE_CACHE_TTL_SECONDS'] : [])]) delete env[name];
  if (!options.responseCache) env.RESPONSE_CACHE_TTL_SECONDS = '0';
  return env;
}

/** The realistic profile's case ids: keys are made for it, and its servers started, only when one of them runs. */
export const REALISTIC_IDS = ['B0r', 'B1r', 'B1gr', 'R1r', 'M1r', 'R4r', 'MIXr-cold', 'MIXr-warm'];
