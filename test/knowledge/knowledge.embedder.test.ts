import { describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, type SentenceModel } from '../../src/knowledge/knowledge.embedder.js';

/** A loader that counts its calls and answers one row per text; `fail` makes the next call reject. */
function countingLoader() {
  const calls = { count: 0, fail: false };
  const load = async (): Promise<SentenceModel> => {
    calls.count++;
    if (calls.fail) {
      calls.fail = false;
      throw new Error('weights unreadable');
    }
    return { embed: async (input) => input.map((text) => [text.length, 0]) };
  };
  return { calls, load };
}

// The model adds 60–80 MB resident and ~0.8 s to the first search (docs/operations.md#memory): a server that never answers a
// knowledge search must never load it.
describe('the sentence model is loaded on the first embed, not before', () => {
  it('creating the embedder, and embedding nothing, loads nothing', async () => {
    const { calls, load } = countingLoader();
    const embedder = createUseLiteEmbedder(load);
    expect(await embedder.embed([])).toEqual([]);
    await expect(embedder.embed(['  '])).rejects.toThrow(/blank/);
    expect(calls.count).toBe(0);
  });

  it('loads once for every embed after, concurrent ones included', async () => {
    const { calls, load } = countingLoader();
    const embedder = createUseLiteEmbedder(load);
    const rows = await Promise.all([embedder.embed(['Barn Venues']), embedder.embed(['a', 'bb'])]);
    await embedder.embed(['later']);
    expect(calls.count).toBe(1);
    expect(rows.map((r) => r.map((v) => [...v]))).toEqual([
      [[11, 0]],
      [
        [1, 0],
        [2, 0],
      ],
    ]);
  });

  it('a failed load is tried again on the next embed, not kept', async () => {
    const { calls, load } = countingLoader();
    calls.fail = true;
    const embedder = createUseLiteEmbedder(load);
    await expect(embedder.embed(['first'])).rejects.toThrow('weights unreadable');
    expect((await embedder.embed(['second']))[0][0]).toBe(6);
    expect(calls.count).toBe(2);
  });
});
