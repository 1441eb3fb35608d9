import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding package.json: the repository, whether this code runs from src/ (tsx, tests) or from the
 * compiled dist/src/. Content, migrations and the changelog are read from there, never from the working directory.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** An absolute path inside the package. */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}
