// Run by test/graphql/connection.test.ts as `node --allow-natives-syntax --import tsx <this file>`. V8's natives tell
// whether an object keeps fast properties (%HasFastProperties) and whether two objects share a hidden class
// (%HaveSameMap). Prints one JSON object of booleans; the `engine…` entries describe this V8, not our code.
import { toConnection } from '../../src/graphql/connection.js';
import type { Page } from '../../src/pagination/page.js';

// The natives syntax is legal only where V8 parses it, so it is compiled at run time rather than written in TypeScript.
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: unknown) => boolean;
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

const page = (slugs: string[]): Page<{ slug: string }> => ({
  nodes: slugs.map((slug) => ({ slug })),
  cursorOf: (node) => `c:${node.slug}`,
  hasNextPage: true,
  hasPreviousPage: false,
  totalCount: async () => slugs.length,
});
const [a, b] = [toConnection(page(['a', 'b'])), toConnection(page(['c', 'd']))];

// Many objects of each shape, as a server makes them: the spread's hidden classes part once its IC has warmed up.
const base = { log: null, now: Date.now };
const spreads = Array.from({ length: 3000 }, (_, i) => ({ ...base, requestId: i }));
const assigned = Array.from({ length: 3000 }, (_, i) => Object.assign({}, base, { requestId: i }));
const getterLiteral = (n: number) => ({
  get value() {
    return n;
  },
});

console.log(
  JSON.stringify({
    connection: hasFastProperties(a) && haveSameMap(a, b),
    edge: hasFastProperties(a.edges[0]) && haveSameMap(a.edges[0], b.edges[1]) && a.edges[1].cursor === 'c:b',
    pageInfo: hasFastProperties(a.pageInfo) && haveSameMap(a.pageInfo, b.pageInfo) && b.pageInfo.endCursor === 'c:d',
    objectAssign: haveSameMap(assigned[0], assigned[2999]) && haveSameMap(assigned[2998], assigned[2999]),
    engineGetterLiteralIsFast: hasFastProperties(getterLiteral(1)),
    engineSpreadSharesMaps: haveSameMap(spreads[2998], spreads[2999]),
  }),
);
