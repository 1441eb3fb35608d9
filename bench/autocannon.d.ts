/** The part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests to send in all, instead of a duration. */
    amount?: number;
    pipelining?: number;
    /** Seconds. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** setupRequest runs before every request and may rewrite it (e.g. rotate a header). */
    requests?: Array<{
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
      /** Called with every response of this request (its body is buffered when given). */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }>;
  }
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Stats {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    /** Seconds actually run. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds. */
    latency: Stats;
    requests: Stats & { sent: number };
  }
  function autocannon(options: Options): Promise<Result>;
  namespace autocannon {
    export type { Result };
  }
  export = autocannon;
}
