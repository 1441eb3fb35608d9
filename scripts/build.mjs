// Compiles the server to dist/ (tsc, source maps) when a source file is newer than the last build, so `npm install`
// (postinstall) and `npm start` (prestart) leave a current build without a separate step. Plain JavaScript: it runs
// before anything is compiled, and in production installs without TypeScript (which then keep the shipped dist/).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const sources = ['src', 'scripts', 'prisma/schema.prisma', 'tsconfig.json', 'tsconfig.build.json'];

/** The generated Prisma client is rewritten by every install; schema.prisma, its source, is what counts. */
const GENERATED = join(root, 'src', 'generated');

function newest(path) {
  if (path === GENERATED) return 0;
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const force = process.argv.includes('--force');

// postinstall: the Prisma client first (the build compiles it); a production install without the Prisma CLI keeps the
// client generated where the install was built.
if (process.argv.includes('--generate')) {
  let prisma;
  try {
    prisma = createRequire(import.meta.url).resolve('prisma/build/index.js');
  } catch {
    if (!existsSync(join(root, 'src', 'generated', 'prisma'))) {
      console.error('build: the Prisma client is not generated and the Prisma CLI is not installed; run `npm ci` with dev dependencies once');
      process.exit(1);
    }
  }
  if (prisma) {
    const generated = spawnSync(process.execPath, [prisma, 'generate'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (generated.status !== 0) process.exit(generated.status ?? 1);
  }
}
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (!force && builtAt >= Math.max(...sources.map((s) => newest(join(root, s))))) process.exit(0);

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (builtAt) {
    console.error('build: sources are newer than dist/, but TypeScript is not installed (production install): running dist/ as built');
    process.exit(0);
  }
  console.error('build: dist/ is missing and TypeScript is not installed; run `npm ci && npm run build` where dev dependencies are available');
  process.exit(1);
}
console.error('build: compiling to dist/ …');
// tsc reports on stdout, which `npm run -s mcp` reserves for the protocol.
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: ['ignore', 2, 2] });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, `${new Date().toISOString()}\n`);
