// The fault tests' prerequisites: where the PostgreSQL server binaries are found, and what is reported missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBinDir, hasPostgresServer, missingFaultTools, PG_BIN } from './processes.js';

describe('findPostgresBinDir', () => {
  // A fake /usr/lib/postgresql: 9.6 and 17 with the server binaries, 16 client-only.
  const root = mkdtempSync(join(tmpdir(), 'wv-pgbin-'));
  const bin = (version: string, binaries: string[]) => {
    const dir = join(root, version, 'bin');
    mkdirSync(dir, { recursive: true });
    for (const b of binaries) writeFileSync(join(dir, b), '');
    return dir;
  };
  const old = bin('9.6', ['postgres', 'initdb']);
  const clientOnly = bin('16', ['psql', 'pg_dump']);
  const newest = bin('17', ['postgres', 'initdb', 'psql']);
  mkdirSync(join(root, 'common'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('takes pg_config --bindir when it holds postgres and initdb', () => {
    expect(findPostgresBinDir({ env: undefined, pgConfigBindir: () => old, versionsRoot: root })).toBe(old);
  });

  it('falls back to the newest version directory with both binaries (numerically: 17 before 9.6)', () => {
    expect(findPostgresBinDir({ env: undefined, pgConfigBindir: () => null, versionsRoot: root })).toBe(newest);
    // libpq-dev's pg_config names a bindir without a server: not taken.
    expect(findPostgresBinDir({ env: undefined, pgConfigBindir: () => clientOnly, versionsRoot: root })).toBe(newest);
  });

  it('PG_BINDIR wins, and is not second-guessed: a directory without a server is null', () => {
    expect(findPostgresBinDir({ env: old, pgConfigBindir: () => newest, versionsRoot: root })).toBe(old);
    expect(findPostgresBinDir({ env: clientOnly, pgConfigBindir: () => newest, versionsRoot: root })).toBeNull();
  });

  it('null with no server anywhere (no pg_config, no version directory)', () => {
    expect(findPostgresBinDir({ env: undefined, pgConfigBindir: () => null, versionsRoot: join(root, 'nowhere') })).toBeNull();
    expect(findPostgresBinDir({ env: undefined, pgConfigBindir: () => clientOnly, versionsRoot: join(root, '16') })).toBeNull();
  });

  it('on this machine: the directory found holds a postgres that runs', () => {
    // PG_BIN is null only where no server is installed; then hasPostgresServer must say so.
    expect(hasPostgresServer).toBe(PG_BIN !== null);
  });
});

describe('missingFaultTools', () => {
  it('names each missing tool with where it looked and how to install it', () => {
    expect(missingFaultTools(['postgres', 'redis'], { postgres: true, redis: true })).toEqual([]);
    const missing = missingFaultTools(['postgres', 'redis'], { postgres: false, redis: false });
    expect(missing).toHaveLength(2);
    expect(missing[0]).toMatch(/^PostgreSQL server binaries \(postgres, initdb\) not found: .*pg_config --bindir.*PG_BINDIR/);
    expect(missing[1]).toMatch(/^redis-server not found on PATH/);
    expect(missingFaultTools(['redis'], { postgres: false, redis: true })).toEqual([]);
  });
});
