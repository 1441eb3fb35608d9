import type { HttpSurface } from './ingress.js';
import { json } from './responses.js';

/**
 * GET /healthz answers from a cached database probe: at most one probe per `maxAgeMs`, and concurrent requests share
 * the probe in flight, so a flood of health checks costs the database nothing more than one query a second.
 */
export function createHealthProbe(options: {
  /** True when the database answers (Database.ping: bounded by its own timeout). */
  probe: () => Promise<boolean>;
  now: () => Date;
  /** @default 1000 */
  maxAgeMs?: number;
}): () => Promise<{ up: boolean; checkedAt: Date }> {
  const maxAgeMs = options.maxAgeMs ?? 1000;
  let last: { up: boolean; checkedAt: Date } | undefined;
  let inFlight: Promise<{ up: boolean; checkedAt: Date }> | undefined;
  return () => {
    const now = options.now();
    if (last && now.getTime() - last.checkedAt.getTime() < maxAgeMs) return Promise.resolve(last);
    inFlight ??= options
      .probe()
      .catch(() => false)
      .then((up) => {
        last = { up, checkedAt: now };
        inFlight = undefined;
        return last;
      });
    return inFlight;
  };
}

/** GET /healthz: the probe's verdict, 503 when the database does not answer. Keyless and uncounted. */
export function createHealthSurface(health: () => Promise<{ up: boolean; checkedAt: Date }>): HttpSurface {
  return {
    accepts: (path, method) => path === '/healthz' && method === 'GET',
    async serve({ scope }) {
      const { up, checkedAt } = await health();
      return json(up ? 200 : 503, {
        status: up ? 'ok' : 'unavailable',
        database: up ? 'up' : 'down',
        checked_at: checkedAt.toISOString(),
        request_id: scope.requestId,
      });
    },
  };
}
