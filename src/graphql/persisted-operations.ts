import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defaultExtractPersistedOperationId, usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { isIntrospectionOnly } from './introspection-only.js';

/** The operations a server accepts by hash: what createApp and the Yoga server are given. */
export interface PersistedOperations {
  /** sha256 of each document's text, 64 lowercase hex digits (no `sha256:` prefix) → the document. */
  documents: ReadonlyMap<string, string>;
  /**
   * Refuse any document sent as text (`query`) with persisted_query_only; only hashes from `documents` run.
   * Introspection-only documents stay accepted (GraphiQL's schema and Docs, codegen against a live server): the schema
   * is public anyway (schema.graphql, /api/v1/openapi.json) and introspection runs no resolver of ours.
   * @default false
   */
  only?: boolean;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** `sha256:<hex>` (graphql-codegen's manifest keys, GraphQL-over-HTTP document ids) or bare hex (Apollo's APQ) → hex. */
function bareHash(key: string): string {
  return key.replace(/^sha256:/i, '').toLowerCase();
}

/**
 * Reads a persisted-documents manifest (graphql-codegen client preset's persisted-documents.json: `{"sha256:<hex>":
 * "<document>"}`). Every key must be the sha256 of its document's text, so a manifest edited by hand or copied from
 * another build is refused at start rather than answering one operation under another's hash.
 */
export function loadPersistedOperations(path: string): Map<string, string> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the persisted operations manifest ${path}: ${(e as Error).message}`, { cause: e });
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new Error(`The persisted operations manifest ${path} must be a JSON object of "sha256:<hex>": "<document>"`);
  }
  const documents = new Map<string, string>();
  for (const [key, document] of Object.entries(manifest)) {
    const hash = bareHash(key);
    if (!HEX_SHA256.test(hash) || typeof document !== 'string') {
      throw new Error(`The persisted operations manifest ${path} has an entry ${key} that is not "sha256:<hex>": "<document>"`);
    }
    if (createHash('sha256').update(document).digest('hex') !== hash) {
      throw new Error(`The persisted operations manifest ${path} has an entry ${key} whose document does not hash to it`);
    }
    documents.set(hash, document);
  }
  return documents;
}

/**
 * Operations by hash (`extensions.persistedQuery.sha256Hash`, POST body or GET parameter), through Yoga's plugin.
 * Its refusals keep the plugin's extensions codes; the classifier (src/errors/classify.ts) maps them onto the catalogue
 * (persisted_query_not_found, persisted_query_only). A persisted document is validated like any other (the
 * validation cache makes that one lookup), so a manifest built against an older schema fails loudly, not silently.
 */
export function usePersistedOperationsManifest(options: PersistedOperations): Plugin {
  const introspection = new WeakSet<Request>();
  const plugin = usePersistedOperations({
    getPersistedOperation: (key) => options.documents.get(bareHash(key)) ?? null,
    extractPersistedOperationId: (params, request, context) => {
      const key = defaultExtractPersistedOperationId(params, request, context);
      return key === null ? null : bareHash(key);
    },
    allowArbitraryOperations: options.only ? (request) => introspection.has(request) : true,
  }) as Plugin;
  if (!options.only) return plugin;
  return {
    ...plugin,
    onParams(payload) {
      // The plugin's allowArbitraryOperations sees only the request, whose body Yoga has already read: the document
      // is looked at here, with the same test as keyless introspection (src/graphql/introspection-only.ts).
      const query = payload.params.query;
      if (typeof query === 'string' && isIntrospectionOnly(new URLSearchParams({ query }), undefined)) introspection.add(payload.request);
      return plugin.onParams!(payload);
    },
  };
}
