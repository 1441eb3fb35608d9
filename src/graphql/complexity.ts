import { GraphQLError, Kind, getNullableType, isListType, parse, type DocumentNode, type Source, type ValidationRule } from 'graphql';
import { complexityFromQuery } from '@pothos/plugin-complexity';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import { refusalError } from './errors.js';
import { documentNesting, valueNesting } from './nesting.js';

/**
 * Bounds on one GraphQL request, checked before any resolver runs (parse, validation, then before execution).
 * The rate limit counts a request as one whatever it asks for; these keep one request from asking for too much.
 */
export const GRAPHQL_BOUNDS = {
  /** Lexical tokens in the document (graphql-js parse maxTokens): stops huge documents before they are parsed. */
  maxTokens: 2000,
  /**
   * Lists, input objects and selection sets inside one another, in the document's text or in its variables, measured
   * before either is read further (src/graphql/nesting.ts says why). GraphiQL's full introspection query nests 10.
   */
  maxNesting: 64,
  /**
   * `__schema` selections in the document, each alias, repeat and fragment counted: each answers the whole schema
   * (~130 KB of JSON, ~15 ms of CPU to compute), and one is all a client (GraphiQL, codegen) ever needs.
   */
  maxSchemaSelections: 1,
  /** Aliased fields in the document: aliases multiply work without multiplying requests. */
  maxAliases: 15,
  /**
   * Nesting of fields (`venues { edges { node { pricing { startingTotal { amount } } } } }` is 6, the deepest
   * path the schema has today): a guard for recursive types to come.
   */
  maxDepth: 8,
  /**
   * List-aware cost (@pothos/plugin-complexity): 1 per field, a page's fields × its `first`, other lists × 10.
   * A page of 100 venues with every field costs 12,301, so one full page as `nodes` and `edges` both fits.
   */
  maxCost: 25_000,
} as const;

/** The largest page any list field serves (venues, vendors, inspiration: 100; knowledge 10; blog less). */
const MAX_PAGE_SIZE = 100;
/** Lists whose size is not set by an argument count this many items. */
const DEFAULT_LIST_MULTIPLIER = 10;
/** A connection's page lists: already multiplied by the connection's `first`. */
const PAGE_LISTS = new Set(['nodes', 'edges']);

/**
 * Cost of a field for @pothos/plugin-complexity: a field with a page size (`first`, `limit`, the `ids` of nodes) multiplies its selection
 * by that size, so `venues(first: 100)` costs 5× `venues(first: 20)`.
 */
export function fieldComplexity(args: Record<string, unknown>, _ctx: unknown, field: { name: string; type: Parameters<typeof getNullableType>[0] }) {
  // nodes(ids:) answers one entity per id (its own bound refuses more than 100).
  const size =
    typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : Array.isArray(args.ids) ? args.ids.length : undefined;
  // A size past every list's own maximum (100) is refused by the field itself (invalid_parameters, as on REST)
  // before any work is done, so it costs no more than the largest page it could have asked for.
  if (size !== undefined) return { field: 1, multiplier: Math.min(MAX_PAGE_SIZE, Math.max(1, size)) };
  if (isListType(getNullableType(field.type))) return { field: 1, multiplier: PAGE_LISTS.has(field.name) ? 1 : DEFAULT_LIST_MULTIPLIER };
  return 1;
}

/** `rule`: how the request breaks the bound, in words; by default `actual > bound max`. */
function boundError(bound: keyof typeof GRAPHQL_BOUNDS, actual: number, what: string, rule?: string): GraphQLError {
  const max = GRAPHQL_BOUNDS[bound];
  const refusal = new ApiError('query_too_complex', {
    message: `Query exceeds the ${what} bound: ${rule ?? `${actual} > ${bound} ${max}`}.`,
    details: { bound, max, actual },
  });
  const error = refusalError(refusal, { requestLevel: true });
  // Yoga marks a validation error `spec` unless told otherwise, and GraphQL over HTTP then answers it 200 under
  // application/json: a bound is our refusal of the whole request, 400 under either media type wherever it is found.
  (error.extensions.http as { spec?: boolean }).spec = false;
  return error;
}

/** The refusal of `what` (the document, the variables) nesting `nesting` levels, or null within maxNesting. */
function nestingViolation(nesting: number, what: string): GraphQLError | null {
  if (nesting <= GRAPHQL_BOUNDS.maxNesting) return null;
  return boundError('maxNesting', nesting, 'nesting', `${what} ${nesting} levels deep, more than maxNesting ${GRAPHQL_BOUNDS.maxNesting}`);
}

/** The refusal of a document text that nests deeper than maxNesting, or null: checked before graphql-js parses it. */
export function documentNestingViolation(text: string): GraphQLError | null {
  return nestingViolation(documentNesting(text), 'the document nests lists, input objects or selection sets');
}

/**
 * Every GraphQL document a request sends is parsed here, its nesting and tokens bounded: Yoga's parse (useRequestBounds;
 * POST, GET and persisted operations alike) and the keyless introspection test (src/graphql/introspection-only.ts). Throws the
 * bound's refusal or graphql-js's syntax error. useDocumentCache checks the nesting before Yoga calls this.
 */
export function parseDocument(source: string | Source, options?: Parameters<typeof parse>[1]): DocumentNode {
  const error = documentNestingViolation(typeof source === 'string' ? source : source.body);
  if (error) throw error;
  try {
    return parse(source, { ...options, maxTokens: GRAPHQL_BOUNDS.maxTokens });
  } catch (e) {
    throw e instanceof GraphQLError ? parseFailure(e) : e;
  }
}

/**
 * graphql-js's syntax error with the code that says so: graphql-js gives its errors no code, and the classifier
 * (src/errors/classify.ts) tells a document that does not parse from one that does not validate by where the error was
 * raised, never by its wording. Yoga gives the same code to what its parse throws (`||=`, so this one stands).
 */
function parseFailure(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code: 'GRAPHQL_PARSE_FAILED' },
  });
}

/** The variables' refusal when they nest deeper than the document may, or null. */
function variablesNestingViolation(variables: unknown): GraphQLError | null {
  return nestingViolation(valueNesting(variables), 'the variables nest lists or objects');
}

const MaxAliasesRule: ValidationRule = (context) => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias) aliases++;
    },
    Document: {
      leave() {
        if (aliases > GRAPHQL_BOUNDS.maxAliases) context.reportError(boundError('maxAliases', aliases, 'alias'));
      },
    },
  };
};

/**
 * Counts `__schema` wherever the document selects it: in operations and fragments, under an alias or repeated (graphql-js
 * would merge a repeat, but a document asking for the schema twice is not one a client needs answered).
 */
const MaxSchemaSelectionsRule: ValidationRule = (context) => {
  let selections = 0;
  return {
    Field(node) {
      if (node.name.value === '__schema') selections++;
    },
    Document: {
      leave() {
        const max = GRAPHQL_BOUNDS.maxSchemaSelections;
        if (selections > max)
          context.reportError(
            boundError(
              'maxSchemaSelections',
              selections,
              'introspection',
              `the document selects __schema ${selections} times, more than maxSchemaSelections ${max}; one selection answers the whole schema`,
            ),
          );
      },
    },
  };
};

/** The operation GraphQL will run, alone with the fragments, so cost is measured for it (not for the first one). */
function selectedOperation(document: DocumentNode, operationName?: string | null): DocumentNode {
  if (!operationName) return document;
  return {
    ...document,
    definitions: document.definitions.filter((d) => d.kind !== Kind.OPERATION_DEFINITION || d.name?.value === operationName),
  };
}

/** The depth or cost bound a measured operation breaks, as the error the caller gets; null within bounds. */
export function boundsViolation(measured: { complexity: number; depth: number }): GraphQLError | null {
  if (measured.depth > GRAPHQL_BOUNDS.maxDepth) return boundError('maxDepth', measured.depth, 'depth');
  if (measured.complexity > GRAPHQL_BOUNDS.maxCost) return boundError('maxCost', measured.complexity, 'cost');
  return null;
}

type Measured = { complexity: number; depth: number };

/**
 * Variable sets remembered per document; past it the document's memo starts over. With the document cache (1,024
 * documents) and MEASURED_KEY_MAX, the memo stays within a few MB whatever clients send.
 */
const MEASURED_PER_DOCUMENT = 16;
/** Longer variables (an inquiry's text) are measured each time rather than kept as a key. */
const MEASURED_KEY_MAX = 256;
const measuredByDocument = new WeakMap<DocumentNode, Map<string, Measured | null>>();

/**
 * The operation's depth and cost, measured once per document, operation and variables: the measure reads only those
 * (fieldComplexity reads a field's arguments, not the context), and walking the document with graphql-js's argument
 * coercion cost ~2 % of a 20-venue search on /graphql, where a frontend repeats the same few operations. Yoga's parse
 * cache hands the same document object for the same text. null: the variables could not be read.
 */
function measuredCost(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  measure: () => Measured,
): Measured | null {
  const key = memoKey(operationName, variables);
  const memo = key === null ? undefined : measuredByDocument.get(document);
  const known = key === null ? undefined : memo?.get(key);
  if (known !== undefined) return known;
  let measured: Measured | null;
  try {
    measured = measure();
  } catch {
    measured = null;
  }
  if (key !== null) {
    let kept = memo;
    if (!kept || kept.size >= MEASURED_PER_DOCUMENT) measuredByDocument.set(document, (kept = new Map()));
    kept.set(key, measured);
  }
  return measured;
}

function memoKey(operationName: string | null | undefined, variables: Record<string, unknown>): string | null {
  try {
    const key = `${operationName ?? ''}\0${JSON.stringify(variables)}`;
    return key.length <= MEASURED_KEY_MAX ? key : null;
  } catch {
    return null; // not JSON (a value no HTTP body holds): measured each time
  }
}

/**
 * Yoga plugin enforcing GRAPHQL_BOUNDS: the variables' nesting as the request's parameters are read, the document's
 * nesting and tokens at parse, aliases and __schema selections at validation, depth and cost before execution.
 */
export function useRequestBounds(): Plugin {
  return {
    onParams({ params, setResult }) {
      const error = params.variables ? variablesNestingViolation(params.variables) : null;
      // A result, not a throw: the plain POST path (src/graphql/yoga.ts) would answer a throw through Yoga again.
      if (error) setResult({ errors: [error] });
    },
    onParse({ setParseFn }) {
      setParseFn(parseDocument);
    },
    onValidate({ addValidationRule }) {
      addValidationRule(MaxAliasesRule);
      addValidationRule(MaxSchemaSelectionsRule);
    },
    onExecute({ args }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const measured = measuredCost(args.document, args.operationName, variables, () =>
        complexityFromQuery(selectedOperation(args.document, args.operationName), {
          schema: args.schema,
          ctx: args.contextValue as object,
          variables,
        }),
      );
      if (!measured) return; // invalid variables: execution reports them in its own words
      const error = boundsViolation(measured);
      // Thrown, not set as the result: Yoga then formats it like every other error.
      if (error) throw error;
    },
  };
}
