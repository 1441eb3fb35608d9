import { getOperationAST, Kind, OperationTypeNode, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/**
 * Answers kept. Each is at most one whole schema (GRAPHQL_BOUNDS.maxSchemaSelections), ~130 KB of JSON; clients send
 * a handful of introspection documents (GraphiQL's, codegen's), so a few answers cover them and a client sending ever
 * new ones keeps the memory to this many.
 */
const ANSWERS_KEPT = 16;
/** Longer variables are not kept as a key: the answer is computed each time. */
const VARIABLES_KEY_MAX = 256;

const INTROSPECTION_FIELDS = new Set(['__schema', '__type', '__typename']);

/**
 * Introspection answered from the answer the same document, operation and variables got before. An introspection
 * answer depends on the schema alone, which is fixed for the server's life, and computing it is the whole cost of
 * the request: GraphiQL's query took ~15 ms of CPU to execute and ~1.5 ms to write, and keyless clients may send 400
 * a minute from each address (§8.4). Every check before execution (bounds, limits) still runs; only an answer without
 * errors is kept. Goes after useJitExecution, which sets an executor of its own in place of the one it finds.
 */
export function useIntrospectionAnswer(): Plugin {
  const answers = new LRUCache<string, ExecutionResult>({ max: ANSWERS_KEPT });
  // Whether a document's operation selects introspection fields only, per document and operation name.
  const introspectionOnly = new WeakMap<DocumentNode, Map<string, boolean>>();

  function isIntrospection(args: ExecutionArgs): boolean {
    const name = args.operationName ?? '';
    let byName = introspectionOnly.get(args.document);
    if (!byName) introspectionOnly.set(args.document, (byName = new Map()));
    let only = byName.get(name);
    if (only === undefined) {
      const operation = getOperationAST(args.document, args.operationName);
      only =
        operation?.operation === OperationTypeNode.QUERY &&
        operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && INTROSPECTION_FIELDS.has(s.name.value));
      byName.set(name, only);
    }
    return only;
  }

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isIntrospection(args)) return;
      const key = answerKey(args);
      if (key === null) return;
      setExecuteFn(async (a) => {
        const known = answers.get(key);
        if (known) return known;
        const result = (await executeFn(a)) as ExecutionResult;
        if (!result.errors?.length) answers.set(key, result);
        return result;
      });
    },
  };
}

/** The document's text, operation and variables; null when the variables are too long (or not JSON) to be a key. */
function answerKey(args: ExecutionArgs): string | null {
  const text = args.document.loc?.source.body;
  if (text === undefined) return null;
  let variables: string;
  try {
    variables = JSON.stringify(args.variableValues ?? {});
  } catch {
    return null;
  }
  if (variables.length > VARIABLES_KEY_MAX) return null;
  return `${args.operationName ?? ''}\0${variables}\0${text}`;
}
