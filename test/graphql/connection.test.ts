// A page's connection, edges and page info are class instances, so their getters live on prototypes: an object literal
// with a getter keeps it in an accessor pair that V8 allocates in the old generation, holding the page (and its rows)
// until the next full GC (docs/performance.md, Levers).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('connections (V8 natives, in a child process)', () => {
  it('keep fast properties and one hidden class per type', () => {
    const probe = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', join(repoRoot, 'test/support/hidden-classes.mts')], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(probe.status, probe.stderr).toBe(0);
    const shapes = JSON.parse(probe.stdout.trim().split('\n').at(-1)!);
    expect(shapes).toMatchObject({ connection: true, edge: true, pageInfo: true, objectAssign: true });
  });
});
