import { openDatabase } from '../src/db/client.js';
import { DataDirLockedError } from '../src/db/data-dir-lock.js';
import { setTimeout } from 'node:timers/promises';
import { runKeysCli } from '../src/cli/keys.js';
import { apiKeyLeaseMs } from '../src/config/env.js';

// Works on a fresh DATA_DIR (migrating as needed), and beside a running server: it then uses the server's embedded
// database process, so a key is issued without downtime and is usable on the next request.
let code = 1;
try {
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || '.data',
    shareEmbedded: true,
  });
  try {
    code = await runKeysCli(
      process.argv.slice(2),
      db.prisma,
      { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) },
      // The nodes' lease: a revocation is reported once no node can still trust the key's row.
      { leaseMs: apiKeyLeaseMs(process.env), wait: (ms) => setTimeout(ms) },
    );
  } finally {
    await db.close();
  }
} catch (e) {
  process.stderr.write(`${e instanceof DataDirLockedError ? e.message : `keys: ${(e as Error).message}`}\n`);
}
// The WASM schema engine leaves a timer behind; exit explicitly.
process.exit(code);
