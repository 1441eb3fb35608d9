import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How `npm start` runs the server, read from package.json's start script: the one place its node options and its
 * environment defaults are written, so the tests' real server processes and the bench's servers run as the service
 * does. The script's form: `exec env NAME=${NAME:-default} … node --option … dist/src/main.js`.
 */
function startScript(repoRoot: string): string {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return scripts.start;
}

export function startNodeOptions(repoRoot: string): string[] {
  const script = startScript(repoRoot);
  const match = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/src\/main\.js\b/.exec(script);
  if (!match) throw new Error(`package.json's start script does not run node … dist/src/main.js: ${script}`);
  return match[1].trim().split(/\s+/).filter(Boolean);
}

/** The environment defaults the start script sets (`NAME=${NAME:-default}`), applied where `env` leaves them unset. */
export function withStartEnvironment(repoRoot: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const defaults: Record<string, string> = {};
  for (const [, name, same, value] of startScript(repoRoot).matchAll(/\b([A-Z_]+)=\$\{([A-Z_]+):-([^}]*)\}/g)) {
    if (name !== same) throw new Error(`package.json's start script sets ${name} from ${same}`);
    defaults[name] = value;
  }
  return { ...defaults, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) };
}
