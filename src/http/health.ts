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
