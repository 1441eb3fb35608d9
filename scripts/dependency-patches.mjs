// Rewrites a few expressions in installed dependencies that cost every request on Node 20's V8. Run by `npm install`
// (scripts/build.mjs --generate); plain JavaScript for the same reason. Each file is pinned to the version its rewrites
// were written against, and every original must occur exactly once, so an upgrade cannot silently drop a rewrite.
// patches/ with patch-package was tried: its diff of Prisma's minified lines is 335 KB.
//
// @prisma/client, runtime/client.js (the file Node loads):
// - A PrismaPromise was an object literal with a getter (`get spec()`). V8 stores such a getter in an accessor pair that
//   it always allocates in the old generation, pointing at the getter's closure, whose scope holds the query's result.
//   Every query's rows therefore survived young-generation GCs until the next full mark-compact: long scavenges, and a
//   mark-compact every few seconds under load (docs/performance.md, Levers).
// - `{ ...a, b: 1 }` and `{ ...a, ...b }` (a spread followed by more properties) get a hidden class of their own on
//   this V8, one per object once the code is warm: old-generation garbage and megamorphic property reads.
//   Object.assign({}, …) shares one.
// Each rewrite keeps the expression's meaning: a getter returning a constant becomes that constant, and a spread into a
// fresh object literal becomes Object.assign into a fresh empty object (both copy own enumerable properties, symbols
// included, reading getters once).
//
// @pothos/selection-mapper, esm/loader-map.js: `responsePath` memoised each GraphQL path link's key in a module-wide
// WeakMap. The links are made afresh for every field of every row, so nearly every call missed, then inserted two
// entries that the next GC had to clear, a visible share of a blog page's CPU (docs/performance.md, Levers). Walking
// the few links up to the root and joining their string keys gives the same key without the table.
//
// pg, lib/result.js: `addFields` built, for every result, an empty row template (a null-prototype object, one property
// per column, then spread) that only object-mode rows use. Prisma's adapter reads in array mode, so for its statements
// the template was pure cost. It is now built only for object-mode results, as before.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** [original, rewritten]: each original occurs exactly once in @prisma/client 7.10.0's runtime/client.js. */
const PRISMA_RUNTIME_REWRITES = [
  // createPrismaPromise: the returned thenable.
  ['get spec(){return n}', 'spec:n'],
  // The query template renderer: one object per SQL parameter.
  ['yield{...i,value:t[n],argType:r?.[n]}', 'yield Object.assign({},i,{value:t[n],argType:r?.[n]})'],
  // QueryInterpreter.run: the interpreter's context.
  ['i={...r,generators:n}', 'i=Object.assign({},r,{generators:n})'],
  // The query event (log: query), emitted for every statement.
  ['{...n,params:Se(n.params),target:"ClientEngine"}', 'Object.assign({},n,{params:Se(n.params),target:"ClientEngine"})'],
  // A model action's request parameters (to which _request then adds otelParentCtx).
  ['e._request({...T,...a})', 'e._request(Object.assign({},T,a))'],
  // _request's middleware consumer.
  ['S={...n,...T}', 'S=Object.assign({},n,T)'],
  // count(): its arguments, with and without a select.
  ['Tt({...r,_count:t})', 'Tt(Object.assign({},r,{_count:t}))'],
  ['Tt({...r,_count:{_all:!0}})', 'Tt(Object.assign({},r,{_count:{_all:!0}}))'],
];

const RESPONSE_PATH_MEMO = `    if (!path) {
        return '';
    }
    let key = pathKeys.get(path);
    if (key === undefined) {
        const prefix = responsePath(path.prev);
        // A list index contributes nothing, so the link's key is its prefix's.
        key = typeof path.key === 'string' ? prefix ? \`\${prefix}.\${path.key}\` : path.key : prefix;
        pathKeys.set(path, key);
    }
    return key;`;
const RESPONSE_PATH_WALK = `    // A list index contributes nothing; the string keys from the root down, joined by '.'.
    let key = '';
    for(let link = path; link; link = link.prev){
        if (typeof link.key === 'string') {
            key = key ? \`\${link.key}.\${key}\` : link.key;
        }
    }
    return key;`;

/**
 * The files rewritten, each with the version of its package the rewrites were written against (another version must
 * be checked by hand) and its [original, rewritten] pairs, each original occurring exactly once in that version.
 */
export const PATCHED_FILES = [
  { package: '@prisma/client', version: '7.10.0', file: 'runtime/client.js', rewrites: PRISMA_RUNTIME_REWRITES },
  {
    package: '@pothos/selection-mapper',
    usedBy: '@pothos/plugin-prisma',
    version: '0.1.0',
    file: 'esm/loader-map.js',
    rewrites: [[RESPONSE_PATH_MEMO, RESPONSE_PATH_WALK]],
  },
  {
    package: 'pg',
    version: '8.23.1',
    file: 'lib/result.js',
    rewrites: [
      ['    const row = Object.create(null)\n', '    const row = this.rowAsArray ? null : Object.create(null)\n'],
      ['      row[desc.name] = null\n', '      if (row) row[desc.name] = null\n'],
      ['    this._prebuiltEmptyResultObject = { ...row }', '    this._prebuiltEmptyResultObject = row && { ...row }'],
    ],
  },
];

function occurrences(text, part) {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/**
 * The directory of the copy of `target.package` that its user loads (`usedBy`, when it is a dependency of a
 * dependency that npm may nest). Found from the package's entry point, since not every package exports package.json.
 */
function packageDir(root, target) {
  const user = target.usedBy ? packageDir(root, { package: target.usedBy }) : root;
  let dir = dirname(createRequire(join(user, 'package.json')).resolve(target.package));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== target.package) {
    if (dirname(dir) === dir) throw new Error(`dependency patch: no package.json of ${target.package} above its entry point`);
    dir = dirname(dir);
  }
  return dir;
}

/** The installed file of `target` (one of PATCHED_FILES), resolved from `root`. */
export function installedFile(root, target) {
  return join(packageDir(root, target), target.file);
}

/**
 * Applies one target's rewrites in place (idempotent). Throws, naming the rewrite, when the installed package is another
 * version or an original is missing or repeated; the file is then left as it was.
 * @returns {'patched' | 'already patched'}
 */
export function patchFile(root, target) {
  const dir = packageDir(root, target);
  const file = join(dir, target.file);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (version !== target.version)
    throw new Error(
      `${target.package} is ${version}; scripts/dependency-patches.mjs was written for ${target.version}. Check each rewrite against the new version and update it.`,
    );
  let text = readFileSync(file, 'utf8');
  let changed = false;
  for (const [original, rewritten] of target.rewrites) {
    const found = occurrences(text, original);
    if (found === 0 && occurrences(text, rewritten) === 1) continue;
    if (found !== 1) throw new Error(`dependency patch: expected one \`${original}\` in ${file}, found ${found}`);
    text = text.replace(original, () => rewritten);
    changed = true;
  }
  if (changed) writeFileSync(file, text);
  return changed ? 'patched' : 'already patched';
}

/** Applies every target; one line per package ("@prisma/client 7.10.0 patched"). */
export function patchDependencies(root) {
  return PATCHED_FILES.map((target) => `${target.package} ${target.version} ${patchFile(root, target)}`);
}
