import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The node options `npm start` runs the server with, read from package.json's start script: the one place they are
 * written, so the tests' real server processes and the bench's servers run as the service does.
 */
export function startNodeOptions(repoRoot: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const match = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/src\/main\.js\b/.exec(scripts.start);
  if (!match) throw new Error(`package.json's start script does not run node … dist/src/main.js: ${scripts.start}`);
  return match[1].trim().split(/\s+/).filter(Boolean);
}
