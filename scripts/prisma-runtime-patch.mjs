// Rewrites eight expressions in @prisma/client's runtime (runtime/client.js, the file Node loads) that cost every query
// on Node 20's V8. Run by `npm install` (scripts/build.mjs --generate); plain JavaScript for the same reason.
//
// - A PrismaPromise was an object literal with a getter (`get spec()`). V8 stores such a getter in an accessor pair that
//   it always allocates in the old generation, pointing at the getter's closure, whose scope holds the query's result.
//   Every query's rows therefore survived young-generation GCs until the next full mark-compact: ~10 MB promoted per
//   scavenge in a loop of raw queries, scavenges of 50 ms, and a mark-compact every few seconds under load
//   (docs/performance.md, "stop 22").
// - `{ ...a, b: 1 }` and `{ ...a, ...b }` (a spread followed by more properties) get a hidden class of their own on
//   this V8, one per object once the code is warm: old-generation garbage and megamorphic property reads.
//   Object.assign({}, …) shares one.
//
// Each rewrite keeps the expression's meaning: a getter returning a constant becomes that constant, and a spread into a
// fresh object literal becomes Object.assign into a fresh empty object (both copy own enumerable properties, symbols
// included, reading getters once). patches/ with patch-package was tried: its diff of these minified lines is 335 KB.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The @prisma/client version these rewrites were written against; another version must be checked by hand. */
export const PRISMA_CLIENT_VERSION = '7.10.0';

/** [original, rewritten]: each original occurs exactly once in runtime/client.js 7.10.0. */
export const RUNTIME_REWRITES = [
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

function occurrences(text, part) {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The runtime file Node loads for @prisma/client, resolved from `root`. */
export function prismaRuntimeFile(root) {
  const require = createRequire(join(root, 'package.json'));
  return join(dirname(require.resolve('@prisma/client/package.json')), 'runtime', 'client.js');
}

/**
 * Applies RUNTIME_REWRITES in place (idempotent). Throws, naming the rewrite, when the installed runtime is another
 * version or an original is missing or repeated, so an upgrade cannot silently drop a rewrite.
 * @returns {'patched' | 'already patched'}
 */
export function patchPrismaRuntime(root) {
  const file = prismaRuntimeFile(root);
  const { version } = JSON.parse(readFileSync(join(dirname(dirname(file)), 'package.json'), 'utf8'));
  if (version !== PRISMA_CLIENT_VERSION)
    throw new Error(
      `@prisma/client is ${version}; scripts/prisma-runtime-patch.mjs was written for ${PRISMA_CLIENT_VERSION}. Check each rewrite against the new runtime and update the version.`,
    );
  let text = readFileSync(file, 'utf8');
  let changed = false;
  for (const [original, rewritten] of RUNTIME_REWRITES) {
    const found = occurrences(text, original);
    if (found === 0 && occurrences(text, rewritten) === 1) continue;
    if (found !== 1) throw new Error(`prisma runtime patch: expected one \`${original}\` in ${file}, found ${found}`);
    text = text.replace(original, () => rewritten);
    changed = true;
  }
  if (changed) writeFileSync(file, text);
  return changed ? 'patched' : 'already patched';
}
