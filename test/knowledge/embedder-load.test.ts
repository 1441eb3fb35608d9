import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/slow-backend-load.ts', import.meta.url));

/** The fixture's one line, in a fresh process (the model is process-wide) whose WebAssembly compiles late: after the weights are read, else after 3 s. */
async function loadWithSlowBackend(loader: 'library' | 'embedder'): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, SLOW_WASM_MS: '3000', LOADER: loader },
    timeout: 60_000,
  });
  return stdout.trim();
}

describe('loading the sentence model while its wasm backend is still compiling', () => {
  it('the library alone reads the weights first and fails; the service waits for the backend and loads', async () => {
    const [library, embedder] = await Promise.all([loadWithSlowBackend('library'), loadWithSlowBackend('embedder')]);
    // The race is real: @energetic-ai/embeddings' initModel makes the weights' tensors before the backend is ready.
    expect(library).toMatch(/^failed Backend 'wasm' has not yet been initialized/);
    expect(embedder).toBe('loaded 512');
  }, 90_000);
});
