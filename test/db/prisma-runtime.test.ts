import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PRISMA_CLIENT_VERSION, RUNTIME_REWRITES, patchPrismaRuntime, prismaRuntimeFile } from '../../scripts/prisma-runtime-patch.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('the Prisma runtime rewrites (scripts/prisma-runtime-patch.mjs, run by npm install)', () => {
  it('are applied to the installed runtime: every rewrite present, no original left', () => {
    const runtime = readFileSync(prismaRuntimeFile(repoRoot), 'utf8');
    for (const [original, rewritten] of RUNTIME_REWRITES) {
      expect(runtime, original).not.toContain(original);
      expect(runtime.split(rewritten).length - 1, rewritten).toBe(1);
    }
  });

  it('keep Prisma promises and our connections in fast, shared hidden classes (V8 natives, in a child process)', () => {
    const probe = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', join(repoRoot, 'test/support/hidden-classes.mts')], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(probe.status, probe.stderr).toBe(0);
    const shapes = JSON.parse(probe.stdout.trim().split('\n').at(-1)!);
    // Before the rewrite and the connection classes, the first four were false on this Node (a getter in an object
    // literal sends it to dictionary mode, with its accessor pair in the old generation).
    expect(shapes).toMatchObject({ prismaPromise: true, connection: true, edge: true, pageInfo: true, objectAssign: true });
  });

  describe('on a copy of the package', () => {
    let root: string;
    const runtimeOf = () => join(root, 'node_modules/@prisma/client/runtime/client.js');
    const install = (version: string, runtime: string) => {
      root = mkdtempSync(join(tmpdir(), 'prisma-patch-'));
      mkdirSync(join(root, 'node_modules/@prisma/client/runtime'), { recursive: true });
      writeFileSync(join(root, 'package.json'), '{}');
      writeFileSync(join(root, 'node_modules/@prisma/client/package.json'), JSON.stringify({ name: '@prisma/client', version }));
      writeFileSync(runtimeOf(), runtime);
    };
    const originals = RUNTIME_REWRITES.map(([original]) => original).join(';\n');
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('rewrites each original once, and a second run changes nothing', () => {
      install(PRISMA_CLIENT_VERSION, originals);
      expect(patchPrismaRuntime(root)).toBe('patched');
      expect(readFileSync(runtimeOf(), 'utf8')).toBe(RUNTIME_REWRITES.map(([, rewritten]) => rewritten).join(';\n'));
      expect(patchPrismaRuntime(root)).toBe('already patched');
    });

    it('refuses another @prisma/client version, naming both, and leaves the file alone', () => {
      install('7.11.0', originals);
      expect(() => patchPrismaRuntime(root)).toThrow(/7\.11\.0.*7\.10\.0/);
      expect(readFileSync(runtimeOf(), 'utf8')).toBe(originals);
    });

    it('refuses a runtime where an original is missing or repeated, naming it', () => {
      const [first, second] = RUNTIME_REWRITES;
      install(PRISMA_CLIENT_VERSION, originals.replace(first[0], 'get spec(){return m}'));
      expect(() => patchPrismaRuntime(root)).toThrow('expected one `get spec(){return n}`');
      rmSync(root, { recursive: true, force: true });
      install(PRISMA_CLIENT_VERSION, `${originals};${second[0]}`);
      expect(() => patchPrismaRuntime(root)).toThrow(/found 2/);
      expect(readFileSync(runtimeOf(), 'utf8')).toBe(`${originals};${second[0]}`);
    });
  });
});
