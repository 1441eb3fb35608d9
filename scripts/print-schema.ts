import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/graphql/schema.js';

// Writes schema.graphql at the repo root: the printed, sorted schema (a test fails when it is stale).
writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
console.log('schema.graphql written');
