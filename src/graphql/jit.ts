import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { fragmentsOf } from './fragments.js';

type JitQuery = CompiledQuery['query'];

interface Compiled {
  schema: GraphQLSchema;
  /** null: graphql-jit refused the document; it runs on graphql-js. */
  query: JitQuery | null;
  /** Executions seen before it is compiled (compileAfter). */
  seen: number;
  operation?: OperationDefinitionNode | null;
}

/**
 * Runs query documents compiled by graphql-jit: each document once into a function (its resolvers, argument reading
 * and leaf serialization inlined), which costs less per request than graphql-js walking the document each time. A
 * document is compiled after it has run `compileAfter` times on graphql-js, so a client sending ever new documents pays
 * graphql-js, not a compilation each. Mutations, documents graphql-jit cannot compile, and variables it refuses run on
 * graphql-js, whose errors name the variable definition.
 */
export function createJitExecutor(options: {
  compileAfter: number;
  /** Called as a document's operation is compiled (its name, '' when anonymous), whether graphql-jit accepted it. */
  onCompile?: (operationName: string, compiled: boolean) => void;
}) {
  // Keyed by the parsed document: the document cache and the REST routes hand the same object for the same text.
  const compiled = new WeakMap<DocumentNode, Map<string, Compiled>>();

  function compiledFor(args: ExecutionArgs): Compiled | null {
    const name = args.operationName ?? '';
    let byName = compiled.get(args.document);
    if (!byName) compiled.set(args.document, (byName = new Map()));
    let entry = byName.get(name);
    if (!entry || entry.schema !== args.schema) byName.set(name, (entry = { schema: args.schema, query: null, seen: 0 }));
    if (entry.seen < options.compileAfter) {
      entry.seen++;
      return null;
    }
    if (entry.seen === options.compileAfter) {
      entry.seen++;
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation === OperationTypeNode.QUERY) {
        const jit = compileQuery(args.schema, args.document, args.operationName ?? undefined, { disablingCapturingStackErrors: true });
        entry.query = isCompiledQuery(jit) ? jit.query : null;
        entry.operation = operation;
        options.onCompile?.(operation.name?.value ?? '', entry.query !== null);
      }
    }
    return entry;
  }

  return async function executeCompiled(args: ExecutionArgs): Promise<ExecutionResult> {
    const entry = compiledFor(args);
    if (!entry?.query) return execute(args);
    const result = await entry.query(args.rootValue, args.contextValue, args.variableValues);
    if (!result.errors?.length) return result;
    // Variables graphql-jit refused (errors and no data: nothing ran) are answered by graphql-js.
    if (!('data' in result)) return execute(args);
    // As graphql-js answers: errors first, each with its field nodes (graphql-jit gives an error only locations).
    return { errors: result.errors.map((e) => located(e, args.document, entry.operation!)), data: result.data };
  };
}

/** The error with the field nodes its path names (errors are formatted from their nodes: src/graphql/errors.ts). */
function located(error: GraphQLError, document: DocumentNode, operation: OperationDefinitionNode): GraphQLError {
  if (error.nodes?.length || !error.path?.length) return error;
  const fragments = fragmentsOf(document);
  let sets: readonly SelectionSetNode[] = [operation.selectionSet];
  let nodes: FieldNode[] = [];
  for (const key of error.path) {
    if (typeof key === 'number') continue;
    nodes = sets.flatMap((set) => fieldsNamed(set, key, fragments));
    sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  }
  if (!nodes.length) return error;
  return new GraphQLError(error.message, { nodes, path: error.path, originalError: error.originalError ?? error, extensions: error.extensions });
}

/** The fields of a selection set answered under a response key, through fragments and inline fragments. */
function fieldsNamed(set: SelectionSetNode, key: string, fragments: Map<string, FragmentDefinitionNode>): FieldNode[] {
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return (s.alias?.value ?? s.name.value) === key ? [s] : [];
    const inner = s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : fragments.get(s.name.value)?.selectionSet;
    return inner ? fieldsNamed(inner, key, fragments) : [];
  });
}

/** Yoga runs repeated query documents compiled (createJitExecutor), after every plugin that wraps execution. */
export function useJitExecution(options: Parameters<typeof createJitExecutor>[0]): Plugin {
  const executeCompiled = createJitExecutor(options);
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn((args) => executeCompiled(args as ExecutionArgs));
    },
  };
}
