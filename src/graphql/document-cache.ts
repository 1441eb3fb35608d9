import type { DocumentNode, GraphQLSchema, ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { documentNestingViolation } from './complexity.js';

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
 * keyed validation by the rules' names, read and joined on every request; here a hit compares the rules by identity with those the document was validated
 * with. The texts are kept in lru-cache as Yoga kept them, without its TTL (a text's document never goes stale) and
 * bounded by characters as well as count. A document is the same object for the same text, as useJitExecution and
 * the response cache key on it. Goes after every plugin that adds a validation rule or a parse option, which then
 * shape what is cached.
 */
export function useDocumentCache(bounds: DocumentCacheBounds = DOCUMENT_CACHE_BOUNDS): Plugin {
  // A parse error is kept like a document, as Yoga's cache kept it: a client repeating a broken document is told again.
  // A text longer than `characters` is not kept (lru-cache's maxEntrySize defaults to its maxSize); an empty text
  // counts one, since lru-cache takes no size of 0.
  const parsed = new LRUCache<string, DocumentNode | Error>({
    max: bounds.documents,
    maxSize: bounds.characters,
    sizeCalculation: (_outcome, text) => Math.max(text.length, 1),
  });
  const validated = new WeakMap<DocumentNode, Validated>();

  return {
    onParse({ params, setParsedDocument }) {
      const text = params.source.toString();
      let outcome = parsed.get(text);
      if (outcome === undefined) {
        // A text nested too deep for graphql-js's recursive parser is refused before any parse function runs, and
        // thrown from here as a cached outcome is: Yoga marks an error its parse gives as a GraphQL-over-HTTP parse
        // failure (`spec`, HTTP 200 under application/json), where a bound's refusal is a 400 under either type.
        const refusal = documentNestingViolation(text);
        if (!refusal)
          return ({ result }) => {
            if (result != null) parsed.set(text, result as DocumentNode | Error);
          };
        parsed.set(text, (outcome = refusal));
      }
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
