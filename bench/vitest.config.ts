import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:bench`: the bench's pure harness tests alone, without the database templates the main suite's
// global setup builds (they start no server and open no database). `npm test` runs them too, with the rest.
export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: { root: fileURLToPath(new URL('..', import.meta.url)), include: ['test/bench/**/*.test.ts'], environment: 'node', testTimeout: 10_000 },
});
