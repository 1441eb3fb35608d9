import { OperationTypeNode, Kind, type DocumentNode } from 'graphql';
import { parseDocument } from './complexity.js';

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
