import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DIMENSIONS, dot } from '../../src/knowledge/knowledge.embedder.js';
import { createModelProcessEmbedder, type ModelProcessEmbedder } from '../../src/knowledge/knowledge.model-host.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}

// The sentence model runs in a child process that a server starts on its first embed and stops when idle
// (docs/operations.md#memory): the server's own memory never holds the model.
describe('the sentence model process', () => {
  let embedder: ModelProcessEmbedder | undefined;
  afterEach(async () => {
    await embedder?.close();
    embedder = undefined;
  });

  it('starts on the first embed, not before, and answers unit vectors in the order asked', async () => {
    embedder = createModelProcessEmbedder();
    expect(await embedder.embed([])).toEqual([]);
    await expect(embedder.embed(['   '])).rejects.toThrow(/blank/);
    expect(embedder.pid).toBeUndefined();

    const [barn, rustic, tax, barnAgain] = await embedder.embed(['Barn venues', 'a rustic barn wedding', 'filing a tax return', 'BARN   venues']);
    expect(embedder.pid).toBeGreaterThan(0);
    expect(embedder.pid).not.toBe(process.pid);
    expect(barn).toBeInstanceOf(Float32Array);
    expect(barn).toHaveLength(DIMENSIONS);
    expect(dot(barn, barn)).toBeCloseTo(1, 3);
    expect(dot(barn, rustic)).toBeGreaterThan(dot(barn, tax));
    // The same text as the model sees it (lower case, one space) gives the same vector.
    expect([...barnAgain]).toEqual([...barn]);
  }, 60_000);

  it('stops after its idle time and starts again on the next embed', async () => {
    embedder = createModelProcessEmbedder({ idleMs: 200 });
    await embedder.embed(['first']);
    const first = embedder.pid!;
    await until(() => !alive(first));
    expect(embedder.pid).toBeUndefined();
    const [again] = await embedder.embed(['second']);
    expect(again).toHaveLength(DIMENSIONS);
    expect(embedder.pid).not.toBe(first);
  }, 60_000);

  it('a process that dies fails the embeds in flight, and the next embed gets a new one', async () => {
    embedder = createModelProcessEmbedder();
    await embedder.embed(['warm']);
    const first = embedder.pid!;
    const inFlight = embedder.embed(['in flight']);
    process.kill(first, 'SIGKILL');
    await expect(inFlight).rejects.toThrow(/sentence model process stopped/);
    const [after] = await embedder.embed(['after']);
    expect(after).toHaveLength(DIMENSIONS);
    expect(embedder.pid).not.toBe(first);
  }, 60_000);
});
