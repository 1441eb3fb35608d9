import type { DocumentNode, GraphQLSchema, ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** What the cache keeps: documents by their text, each text counted once, both bounds together. */
export interface DocumentCacheBounds {
  /** Documents (and parse errors) kept, the least recently used dropped first. */
  documents: number;
  /**
   * Characters of document text kept in all. A document's text may be mostly whitespace and comments (no token, so
   * GRAPHQL_BOUNDS.maxTokens does not bound it) up to the body limit: a count alone would keep any number of such.
   */
  characters: number;
}

/** Yoga's own default count; 4 M characters hold ~4,000 documents of a frontend's ~1 KB. */
export const DOCUMENT_CACHE_BOUNDS: DocumentCacheBounds = { documents: 1024, characters: 4_000_000 };

interface Validated {
  schema: GraphQLSchema;
  /** The rules the result was found with (each plugin's addValidationRule adds to graphql-js's specified rules). */
  rules: readonly ValidationRule[] | undefined;
  // As found, formatted by useCatalogueValidationErrors (which runs before) when it is a refusal.
  result: readonly Error[];
}

const sameRules = (a: readonly ValidationRule[] | undefined, b: readonly ValidationRule[] | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((rule, i) => rule === b[i]));

/**
 * Parsing and validation, each done once per document text, in place of Yoga's parser and validation cache. Yoga's
 * keyed validation by the rules' names, read and joined on every request (~6 µs of a GraphQL POST, more than parsing's
 * own lookup), and looked documents up in a TTL cache that read the clock on each hit (docs/performance.md, "stop 48").
 * Here a hit compares the rules by identity, against those the document was validated with, and the texts are a Map
 * in use order. A document is the same object for the same text, as useJitExecution and the response cache key on it.
 * Goes after every plugin that adds a validation rule or a parse option, which then shape what is cached.
 */
export function useDocumentCache(bounds: DocumentCacheBounds = DOCUMENT_CACHE_BOUNDS): Plugin {
  // A parse error is kept like a document, as Yoga's cache kept it: a client repeating a broken document is told again.
  const parsed = new Map<string, DocumentNode | Error>();
  let characters = 0;
  const validated = new WeakMap<DocumentNode, Validated>();

  function keep(text: string, outcome: DocumentNode | Error) {
    if (text.length > bounds.characters || parsed.has(text)) return;
    parsed.set(text, outcome);
    characters += text.length;
    // A Map iterates in insertion order, and a hit re-inserts its text: the first key is the least recently used.
    for (const oldest of parsed.keys()) {
      if (parsed.size <= bounds.documents && characters <= bounds.characters) break;
      parsed.delete(oldest);
      characters -= oldest.length;
    }
  }

  return {
    onParse({ params, setParsedDocument }) {
      const text = params.source.toString();
      const outcome = parsed.get(text);
      if (outcome === undefined)
        return ({ result }) => {
          if (result != null) keep(text, result as DocumentNode | Error);
        };
      parsed.delete(text);
      parsed.set(text, outcome);
      if (outcome instanceof Error) throw outcome;
      setParsedDocument(outcome);
    },
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      const known = validated.get(documentAST);
      if (known && known.schema === schema && sameRules(known.rules, rules)) {
        setResult(known.result);
        return;
      }
      // The rules as they stand when validation runs: no plugin adds one after this hook (it goes after them all).
      const found = rules && [...rules];
      return ({ result }) => validated.set(documentAST, { schema, rules: found, result });
    },
  };
}
