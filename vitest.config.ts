import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests must get the same (CJS) graphql module as Pothos and Yoga in node_modules, or graphql-js refuses schemas
  // "from another module or realm": vite would otherwise follow its "module" field to index.mjs.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Migrates and seeds one template database per run; each test file clones it (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
