// npm run eval:knowledge: recall@5 and MRR of the knowledge search on the labelled questions in
// test/knowledge/questions.json, for words alone, meaning alone and fused. Runs on a fresh in-memory database.
import { readFile } from 'node:fs/promises';
import { openDatabase } from '../src/db/client.js';
import { createUseLiteEmbedder } from '../src/knowledge/knowledge.embedder.js';
import { evaluateKnowledge, type Figures, type LabelledQuestion } from '../src/knowledge/knowledge.eval.js';
import { ingestKnowledge } from '../src/knowledge/knowledge.ingest.js';

const questions = JSON.parse(await readFile(new URL('../test/knowledge/questions.json', import.meta.url), 'utf8')) as LabelledQuestion[];
const db = await openDatabase({ memory: true });
try {
  const embedder = createUseLiteEmbedder();
  const ingest = await ingestKnowledge(db.prisma, { embedder });
  const result = await evaluateKnowledge(db.prisma, embedder, questions);
  const row = (name: string, f: Figures) => `${name.padEnd(10)} ${f.recallAt5.toFixed(3).padStart(9)} ${f.mrr.toFixed(3).padStart(7)}`;
  console.log(`Knowledge search: ${result.questions} questions over ${ingest.sections} sections (labels: test/knowledge/questions.json)`);
  console.log(`${'half'.padEnd(10)} ${'recall@5'.padStart(9)} ${'MRR'.padStart(7)}`);
  console.log(row('text', result.text));
  console.log(row('semantic', result.semantic));
  console.log(row('fused', result.fused));
  if (result.misses.length) {
    console.log('\nFused top-5 misses:');
    for (const m of result.misses) console.log(`  rank ${m.rank ?? '-'}: "${m.q}" → ${m.note}`);
  }
} finally {
  await db.close();
}
process.exit(0);
