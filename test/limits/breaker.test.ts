import { describe, expect, it } from 'vitest';
import { BreakerOpenError, withBreaker } from '../../src/limits/breaker.js';
import type { LogOperation, LogResult, SlidingLogStore } from '../../src/limits/sliding-log.js';
import { testClock } from './clock.js';

const OK: LogResult = { allowed: true, windows: [{ count: 1, oldestMs: 0, freeAtMs: null }] };
const op: LogOperation = { key: 'k', rules: [{ windowMs: 60_000, limit: 10 }], nowMs: 0, mode: 'hit', member: 'm' };

/** A store whose answers the test decides: 'ok', 'fail', or a promise the test settles later. */
function scriptedStore() {
  let mode: 'ok' | 'fail' | 'hang' = 'ok';
  let calls = 0;
  const hanging: Array<(e: Error) => void> = [];
  const store: SlidingLogStore = {
    kind: 'redis',
    async apply() {
      calls++;
      if (mode === 'ok') return OK;
      if (mode === 'fail') throw new Error('Command timed out');
      return new Promise<LogResult>((_resolve, reject) => hanging.push(reject));
    },
    close: async () => {},
  };
  return {
    store,
    set: (m: typeof mode) => (mode = m),
    calls: () => calls,
    timeOutHanging: () => hanging.splice(0).forEach((reject) => reject(new Error('Command timed out'))),
  };
}

describe('Redis circuit breaker', () => {
  it('opens after 3 consecutive failures, then fails at once without touching the store', async () => {
    const clock = testClock();
    const s = scriptedStore();
    const states: string[] = [];
    const breaker = withBreaker(s.store, { nowMs: () => clock.ms, onStateChange: (state) => states.push(state) });
    s.set('fail');
    for (let i = 0; i < 2; i++) await expect(breaker.apply(op)).rejects.toThrow('Command timed out');
    expect(breaker.state).toBe('closed');
    await expect(breaker.apply(op)).rejects.toThrow('Command timed out');
    expect(breaker.state).toBe('open');
    const before = s.calls();
    for (let i = 0; i < 100; i++) await expect(breaker.apply(op)).rejects.toBeInstanceOf(BreakerOpenError);
    expect(s.calls()).toBe(before);
    expect(states).toEqual(['open']);
  });

  it('a success in between resets the count (3 consecutive, not 3 in all)', async () => {
    const clock = testClock();
    const s = scriptedStore();
    const breaker = withBreaker(s.store, { nowMs: () => clock.ms });
    for (const m of ['fail', 'fail', 'ok', 'fail', 'fail'] as const) {
      s.set(m);
      await breaker.apply(op).catch(() => undefined);
    }
    expect(breaker.state).toBe('closed');
  });

  it('half-opens after 5 s: one probe only; its success closes, its failure reopens for another 5 s', async () => {
    const clock = testClock();
    const s = scriptedStore();
    const breaker = withBreaker(s.store, { nowMs: () => clock.ms });
    s.set('fail');
    for (let i = 0; i < 3; i++) await breaker.apply(op).catch(() => undefined);
    clock.advance(4_999);
    await expect(breaker.apply(op)).rejects.toBeInstanceOf(BreakerOpenError);
    clock.advance(1);
    s.set('hang');
    const probe = breaker.apply(op);
    expect(breaker.state).toBe('half-open');
    // While the probe is out, everyone else fails fast.
    await expect(breaker.apply(op)).rejects.toBeInstanceOf(BreakerOpenError);
    expect(s.calls()).toBe(4);
    s.timeOutHanging();
    await expect(probe).rejects.toThrow('Command timed out');
    expect(breaker.state).toBe('open');
    clock.advance(4_999);
    await expect(breaker.apply(op)).rejects.toBeInstanceOf(BreakerOpenError);
    clock.advance(1);
    s.set('ok');
    await expect(breaker.apply(op)).resolves.toEqual(OK);
    expect(breaker.state).toBe('closed');
    await expect(breaker.apply(op)).resolves.toEqual(OK);
  });

  it('late answers to calls made before it opened neither close nor count', async () => {
    const clock = testClock();
    const s = scriptedStore();
    const breaker = withBreaker(s.store, { nowMs: () => clock.ms });
    s.set('hang');
    const inFlight = Array.from({ length: 10 }, () => breaker.apply(op).catch((e: Error) => e));
    s.timeOutHanging();
    await Promise.all(inFlight);
    expect(breaker.state).toBe('open');
    clock.advance(5_000);
    s.set('ok');
    await breaker.apply(op);
    expect(breaker.state).toBe('closed');
  });
});
