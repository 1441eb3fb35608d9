import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PATCHED_FILES, installedFile, patchFile, type PatchedFile } from '../../scripts/dependency-patches.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const target = (name: string) => PATCHED_FILES.find((t) => t.package === name)!;

describe('the dependency rewrites (scripts/dependency-patches.mjs, run by npm install)', () => {
  it.each(PATCHED_FILES.map((t) => [t.package, t] as const))(
    'are applied to the installed %s: every rewrite present, no original left',
    (_name, t) => {
      const text = readFileSync(installedFile(repoRoot, t), 'utf8');
      for (const [original, rewritten] of t.rewrites) {
        expect(text, original).not.toContain(original);
        expect(text.split(rewritten).length - 1, rewritten).toBe(1);
      }
    },
  );

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

  it("selection-mapper's loader keys still join the string keys of the path from the root, list indices dropped", async () => {
    // The patched file itself, as plugin-prisma loads it.
    const { cacheKey } = (await import(pathToFileURL(installedFile(repoRoot, target('@pothos/selection-mapper'))).href)) as {
      cacheKey: (type: string, path: unknown) => string;
    };
    const responsePath = (path: unknown) => cacheKey('T', path).slice(2);
    type Link = { prev: Link | undefined; key: string | number; typename: string | undefined };
    const link = (prev: Link | undefined, key: string | number): Link => ({ prev, key, typename: undefined });
    const nodes = link(link(undefined, 'venues'), 'nodes');
    expect(responsePath(undefined)).toBe('');
    expect(responsePath(link(undefined, 'venue'))).toBe('venue');
    expect(responsePath(link(link(nodes, 3), 'photos'))).toBe('venues.nodes.photos');
    expect(responsePath(link(link(link(link(nodes, 0), 'photos'), 7), 'url'))).toBe('venues.nodes.photos.url');
    // The same key for every row of a list: what the loader mappings are recorded under.
    expect(responsePath(link(link(nodes, 0), 'testimonials'))).toBe(responsePath(link(link(nodes, 19), 'testimonials')));
  });

  it("pg's results: object rows keep every column (a __proto__ one as data), array rows build no object template", () => {
    // The driver's internal side of a result (what a query fills in as rows arrive); not in pg's public types.
    type Filled = { addFields(fields: unknown[]): void; parseRow(values: unknown[]): Record<string, unknown>; _prebuiltEmptyResultObject: unknown };
    const ResultClass = pg.Result as unknown as new (rowMode?: 'array') => Filled;
    const fields = ['id', '__proto__', 'name'].map((name) => ({ name, dataTypeID: 25, format: 'text' }));
    const objects = new ResultClass();
    objects.addFields(fields);
    const row = objects.parseRow(['1', 'x', null]);
    expect(Object.keys(row)).toEqual(['id', '__proto__', 'name']);
    expect(row).toMatchObject({ id: '1', name: null });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    const arrays = new ResultClass('array');
    arrays.addFields(fields);
    expect(arrays.parseRow(['1', 'x', null])).toEqual(['1', 'x', null]);
    expect(arrays._prebuiltEmptyResultObject).toBeNull();
  });

  describe('on a copy of a package', () => {
    let root: string;
    const prisma = target('@prisma/client');
    const fileOf = (t: PatchedFile) => join(root, 'node_modules', t.package, t.file);
    const install = (t: PatchedFile, version: string, text: string) => {
      root = mkdtempSync(join(tmpdir(), 'dependency-patch-'));
      mkdirSync(dirname(fileOf(t)), { recursive: true });
      writeFileSync(join(root, 'package.json'), '{}');
      // main points at the patched file itself, so the package resolves like the real one.
      writeFileSync(join(root, 'node_modules', t.package, 'package.json'), JSON.stringify({ name: t.package, version, main: t.file }));
      writeFileSync(fileOf(t), text);
    };
    const originals = prisma.rewrites.map(([original]) => original).join(';\n');
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('rewrites each original once, and a second run changes nothing', () => {
      install(prisma, prisma.version, originals);
      expect(patchFile(root, prisma)).toBe('patched');
      expect(readFileSync(fileOf(prisma), 'utf8')).toBe(prisma.rewrites.map(([, rewritten]) => rewritten).join(';\n'));
      expect(patchFile(root, prisma)).toBe('already patched');
    });

    it('refuses another version, naming both, and leaves the file alone', () => {
      install(prisma, '7.11.0', originals);
      expect(() => patchFile(root, prisma)).toThrow(/@prisma\/client is 7\.11\.0.*7\.10\.0/);
      expect(readFileSync(fileOf(prisma), 'utf8')).toBe(originals);
    });

    it('refuses a file where an original is missing or repeated, naming it', () => {
      const [first, second] = prisma.rewrites;
      install(prisma, prisma.version, originals.replace(first[0], 'get spec(){return m}'));
      expect(() => patchFile(root, prisma)).toThrow('expected one `get spec(){return n}`');
      rmSync(root, { recursive: true, force: true });
      install(prisma, prisma.version, `${originals};${second[0]}`);
      expect(() => patchFile(root, prisma)).toThrow(/found 2/);
      expect(readFileSync(fileOf(prisma), 'utf8')).toBe(`${originals};${second[0]}`);
    });

    it('patches the copy its user loads when npm nests it', () => {
      const mapper = target('@pothos/selection-mapper');
      const original = mapper.rewrites.map(([o]) => o).join('\n');
      root = mkdtempSync(join(tmpdir(), 'dependency-patch-'));
      writeFileSync(join(root, 'package.json'), '{}');
      const user = join(root, 'node_modules', mapper.usedBy!);
      const nested = join(user, 'node_modules', mapper.package);
      const hoisted = join(root, 'node_modules', mapper.package);
      for (const [dir, version] of [
        [user, '4.17.0'],
        [nested, mapper.version],
        [hoisted, '0.0.9'],
      ] as const) {
        mkdirSync(join(dir, dirname(mapper.file)), { recursive: true });
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: dir === user ? mapper.usedBy : mapper.package, version, main: mapper.file }));
        writeFileSync(join(dir, mapper.file), original);
      }
      expect(patchFile(root, mapper)).toBe('patched');
      expect(readFileSync(join(nested, mapper.file), 'utf8')).toBe(mapper.rewrites.map(([, r]) => r).join('\n'));
      expect(readFileSync(join(hoisted, mapper.file), 'utf8')).toBe(original);
    });
  });
});
