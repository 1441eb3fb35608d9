// The sentence model's own process, started by knowledge.model-host.ts on the first embed and ended by it when idle.
// The model holds 60–80 MB that a process never gives back once loaded (WebAssembly memory does not shrink), and its
// inference would run on the server's event loop; here it does neither (docs/operations.md#memory).
import { createUseLiteEmbedder } from './knowledge.embedder.js';

/** A request from the host: texts to embed, answered by a reply with the same id. */
export interface ModelRequest {
  id: number;
  texts: string[];
}

/** The vectors in the texts' order, or why there are none. */
export type ModelReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

// The host is what asks; without it nobody needs the model.
process.on('disconnect', () => process.exit(0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));

const embedder = createUseLiteEmbedder();
process.on('message', (request: ModelRequest) => {
  embedder.embed(request.texts).then(
    (vectors) => process.send?.({ id: request.id, vectors } satisfies ModelReply),
    (error: unknown) => process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ModelReply),
  );
});
