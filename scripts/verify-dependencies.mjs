// Proves that an install leaves the dependencies our install and build could touch exactly as published: every
// installed copy of prisma, @prisma/*, pg, pg-* and @pothos/* holds the files of the registry tarball the lockfile pins
// (the tarball checked against the lockfile's `integrity`), byte for byte, none added and none missing. Run by .ci/run
// after `npm ci`; `--all` checks every package in the lockfile. Prints each file that differs and exits 1.
// Plain JavaScript, so it runs on a fresh install before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHECKED = /^(prisma|pg|pg-[^/]+|@prisma\/[^/]+|@pothos\/[^/]+)$/;
/** Specs per `npm pack` call: a few arguments' worth, whatever the lockfile holds. */
const PACK_BATCH = 40;

/** Installed packages of the lockfile to check: its path, name, version and integrity. */
function packagesToCheck(all) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = [];
  const absent = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    // A bundled package came inside its parent's tarball; a link is not from the registry.
    if (!path.includes('node_modules/') || entry.link || entry.inBundle) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!all && !CHECKED.test(name)) continue;
    if (!existsSync(join(root, path, 'package.json'))) {
      // Another platform's optional package, or a dev dependency of a production install: not installed by design.
      if (!entry.optional && !entry.dev) absent.push(`${path}: in the lockfile but not installed`);
      continue;
    }
    if (!entry.integrity) absent.push(`${path}: the lockfile has no integrity for it`);
    else packages.push({ path, name, version: entry.version, integrity: entry.integrity });
  }
  return { packages, absent };
}

/** Downloads (or takes from npm's cache) each name@version's tarball into `dir`; its file by spec. */
function packTarballs(specs, dir) {
  const files = new Map();
  for (let i = 0; i < specs.length; i += PACK_BATCH) {
    const batch = specs.slice(i, i + PACK_BATCH);
    // From the project, so its npm configuration (registry, auth) applies; the tarballs go to `dir`.
    const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', dir, ...batch], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    for (const result of JSON.parse(packed.stdout)) files.set(`${result.name}@${result.version}`, join(dir, result.filename));
  }
  return files;
}

/** Whether `bytes` match a lockfile integrity (SRI: `algo-base64`, several separated by spaces). */
function matchesIntegrity(bytes, integrity) {
  return integrity.split(/\s+/).some((sri) => {
    const at = sri.indexOf('-');
    return at > 0 && createHash(sri.slice(0, at)).update(bytes).digest('base64') === sri.slice(at + 1);
  });
}

/** Every regular file under `dir` by relative path, `node_modules` directories (other packages) left out. */
function filesUnder(dir, prefix = '', into = new Map()) {
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') filesUnder(dir, path, into);
    } else {
      into.set(path, join(dir, path));
    }
  }
  return into;
}

function firstDifference(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return length;
}

/** The differences between an installed package directory and its extracted tarball, one line each. */
function compare(installedDir, publishedDir) {
  const published = filesUnder(publishedDir);
  const installed = filesUnder(installedDir);
  const differences = [];
  for (const [path, file] of published) {
    const target = installed.get(path);
    if (!target) {
      differences.push(`${path}: missing`);
      continue;
    }
    if (!lstatSync(target).isFile() || !lstatSync(file).isFile()) {
      differences.push(`${path}: not a regular file on both sides`);
      continue;
    }
    const [want, have] = [readFileSync(file), readFileSync(target)];
    if (!want.equals(have))
      differences.push(`${path}: differs from byte ${firstDifference(want, have)} (${have.length} bytes, published ${want.length})`);
  }
  for (const path of installed.keys()) if (!published.has(path)) differences.push(`${path}: not in the published tarball`);
  return differences;
}

function main() {
  const { packages, absent } = packagesToCheck(process.argv.includes('--all'));
  const work = mkdtempSync(join(tmpdir(), 'verify-dependencies-'));
  const problems = [...absent];
  let files = 0;
  try {
    const specs = [...new Set(packages.map((p) => `${p.name}@${p.version}`))];
    const tarballs = packTarballs(specs, work);
    for (const [index, pkg] of packages.entries()) {
      const spec = `${pkg.name}@${pkg.version}`;
      const tarball = tarballs.get(spec);
      if (!tarball) {
        problems.push(`${pkg.path} (${spec}): npm pack returned no tarball`);
        continue;
      }
      if (!matchesIntegrity(readFileSync(tarball), pkg.integrity)) {
        problems.push(`${pkg.path} (${spec}): the registry tarball does not match the lockfile's integrity`);
        continue;
      }
      const extracted = join(work, `x${index}`);
      mkdirSync(extracted);
      // npm installs a tarball's contents without its top directory (`package/` in most).
      const untar = spawnSync('tar', ['-xzf', tarball, '-C', extracted, '--strip-components=1'], { encoding: 'utf8' });
      if (untar.status !== 0) throw new Error(`tar failed on ${tarball}: ${untar.stderr.trim()}`);
      const differences = compare(join(root, pkg.path), extracted);
      files += filesUnder(extracted).size;
      problems.push(...differences.map((line) => `${pkg.path} (${spec}): ${line}`));
      rmSync(extracted, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const line of problems) console.log(line);
  if (problems.length) {
    console.log(`dependencies: ${problems.length} difference(s) from the published tarballs in ${packages.length} packages`);
    process.exit(1);
  }
  console.log(`dependencies: ${packages.length} installed packages, ${files} files, identical to their published tarballs`);
}

main();
