import { NoDeprecatedCustomRule, OperationTypeNode, validate, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../graphql/context.js';
import { parseDocument } from '../graphql/complexity.js';

/** §9: the deprecated fields (per_night, the *_nightly twins) were announced with 1.0.0 and go after 2027-01-06. */
export const DEPRECATION = {
  /** When they were deprecated: the 1.0.0 release. */
  since: new Date(Date.UTC(2026, 10, 23)),
  /** "Removal after 2027-01-06": gone from the start of the next day. */
  sunset: new Date(Date.UTC(2027, 0, 7)),
} as const;

/** RFC 9745 Deprecation (an @-date), RFC 8594 Sunset (an HTTP-date), and a Link to the changelog that explains them. */
export function deprecationHeaders(baseUrl: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(DEPRECATION.since.getTime() / 1000)}`,
    sunset: DEPRECATION.sunset.toUTCString(),
    link: `<${baseUrl}/developers/changelog>; rel="deprecation"; type="text/html"`,
  };
}

/**
 * Marks the request context when the operation selects a deprecated field (graphql-js's own rule finds them). The
 * rule reads only the document (fields, arguments and enum literals in it), so its answer is kept per parsed document:
 * the document cache hands the same DocumentNode back for the same text, and walking it again cost ~1 % of a search.
 */
export function useDeprecationNotice(): Plugin<RequestContext> {
  const answers = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, boolean>>();
  return {
    onExecute({ args }) {
      const scope = args.contextValue.scope;
      if (!scope) return;
      let bySchema = answers.get(args.schema);
      if (!bySchema) answers.set(args.schema, (bySchema = new WeakMap()));
      let deprecated = bySchema.get(args.document);
      if (deprecated === undefined) {
        deprecated = validate(args.schema, args.document, [NoDeprecatedCustomRule]).length > 0;
        bySchema.set(args.document, deprecated);
      }
      if (deprecated) scope.usedDeprecatedFields = true;
    },
  };
}

const utf8 = new TextDecoder();

/** A GraphQL request (GET ?query= or a POST JSON body) whose operations select only __schema, __type and __typename. */
export function isIntrospectionOnly(search: Pick<URLSearchParams, 'get'>, body: Uint8Array | undefined): boolean {
  let query: unknown = search.get('query');
  if (body) {
    // Every introspection field starts with "__": any other request is told apart on its bytes, without decoding or
    // parsing anything (Yoga's parser decodes the body once, after this).
    if (!Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes('__')) return false;
    try {
      query = (JSON.parse(utf8.decode(body)) as { query?: unknown })?.query;
    } catch {
      return false;
    }
  }
  if (typeof query !== 'string' || !query.includes('__')) return false;
  let document: DocumentNode;
  try {
    // As Yoga parses it, within the same bounds: a document past them is not answered keyless.
    document = parseDocument(query);
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  return (
    operations.length > 0 &&
    operations.every(
      (op) =>
        op.operation === OperationTypeNode.QUERY &&
        op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && ['__schema', '__type', '__typename'].includes(s.name.value)),
    )
  );
}
