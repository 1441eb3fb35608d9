// Rewrites content/knowledge-embeddings.json: the vectors of every knowledge section, keyed by content hash, so a
// first start and the test templates never load the model. Run after editing content/knowledge (a test fails when
// a section has no precomputed vector). Unchanged sections keep their vectors; only new text is embedded.
//   npx tsx scripts/knowledge-embeddings.ts
import { readKnowledgeSections } from '../src/knowledge/knowledge.content.js';
import { createUseLiteEmbedder } from '../src/knowledge/knowledge.embedder.js';
import { readPrecomputed, vectorsFor, writePrecomputed, EMBEDDINGS_FILE } from '../src/knowledge/knowledge.ingest.js';

const started = performance.now();
const sections = await readKnowledgeSections();
const embedder = createUseLiteEmbedder();
const { vectors, embedded, failed } = await vectorsFor(sections, { embedder, precomputed: await readPrecomputed() });
if (failed) {
  console.error('The embedding model could not run; nothing written.');
  process.exit(1);
}
await writePrecomputed(vectors, embedder.id);
console.log(`${EMBEDDINGS_FILE}: ${vectors.size} sections, ${embedded} embedded now, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);
