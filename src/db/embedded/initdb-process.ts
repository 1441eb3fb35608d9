// Creates a new PGlite data directory (PGlite runs initdb in its own WebAssembly module) and exits. The database
// process runs this in a process of its own, then opens the directory: compiling and running initdb left ~210 MB
// (malloc arenas and WebAssembly memory that never shrink) resident for the life of the process that did it, 379 MB
// against 168 MB for one that only opened the directory (docs/operations.md#memory).
import { createPGlite } from '../pglite.js';

process.umask(0o077);
// Started by database-process.ts, which waits for the exit code: without it there is nobody to report to.
process.on('disconnect', () => process.exit(1));

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('initdb-process: no data directory given\n');
  process.exit(2);
}
const pglite = await createPGlite({ dataDir: dir });
await pglite.close();
process.exit(0);
