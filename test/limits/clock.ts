/** An injected clock tests move by hand: no sleeps, exact window edges. */
export function testClock(start = '2026-06-01T10:00:00.000Z') {
  let ms = Date.parse(start);
  return {
    now: () => new Date(ms),
    get ms() {
      return ms;
    },
    advance(byMs: number) {
      ms += byMs;
    },
    /** Unix seconds, as X-RateLimit-Reset carries them. */
    seconds: (atMs: number) => Math.ceil(atMs / 1000),
  };
}
