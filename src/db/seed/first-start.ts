// The server's side of seed-process.ts: a first start seeds in a process of its own, so that the server's memory holds
// what serving needs and not what seeding used.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { SeedProcessMessage } from './seed-process.js';

const entry = fileURLToPath(new URL(`./seed-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/**
 * Seeds the demo catalogue and the content, then settles the tables, in a child process that uses this process's
 * configuration (its environment) and database. `onProgress` gets the seed's progress lines. Rejects when it fails.
 */
export async function seedInChildProcess(options: { onProgress: (message: string) => void }): Promise<void> {
  const child = fork(entry, [], {
    // A compiled build runs the .js entry as is; from source the child needs the same TypeScript loader as we do.
    execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  child.on('message', (message: SeedProcessMessage) => {
    if (message?.type === 'progress') options.onProgress(message.message);
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`seeding the first start failed (seed process: ${signal ?? `exit ${code}`})`);
}
