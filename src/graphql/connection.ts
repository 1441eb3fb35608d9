import type { ObjectRef } from '@pothos/core';
import { builder, type Types } from './builder.js';

/** A page of a cursor-paginated list, as services return it. `totalCount` runs only when selected. */
export interface Page<T> {
  nodes: T[];
  /** Signed cursor that resumes after `node`. */
  cursorOf: (node: T) => string;
  hasNextPage: boolean;
  /** Rows precede this page: it was read from a cursor (or a non-zero offset). */
  hasPreviousPage: boolean;
  totalCount: () => Promise<number>;
}

/** The shape plugin-relay's connection types read, keeping the page (for totalCount and extras such as categoryStats). */
export interface ConnectionResult<T, P extends Page<T> = Page<T>> {
  page: P;
  edges: { node: T; cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/**
 * A service page as a Relay connection. The cursors stay ours (HMAC-signed and bound to the filters, cursor.ts), so
 * plugin-relay's offset-based `resolveArrayConnection`/`resolveCursorConnection` are not used, only its types.
 * endCursor is null on the last page, as REST's next_cursor (adapter.ts reads it).
 *
 * Cursors are signed only when read: REST's `nodes` + `endCursor` needs one HMAC per page instead of one per row
 * (plugin-relay's `nodes` goes through `edges`, so an edge's cursor is a getter too).
 */
export function toConnection<T, P extends Page<T>>(page: P & Page<T>): ConnectionResult<T, P> {
  const cursors: (string | undefined)[] = [];
  const cursorAt = (index: number) => (cursors[index] ??= page.cursorOf(page.nodes[index]));
  const last = page.nodes.length - 1;
  let edges: { node: T; cursor: string }[] | undefined;
  return {
    page,
    get edges() {
      return (edges ??= page.nodes.map((node, index) => ({
        node,
        get cursor() {
          return cursorAt(index);
        },
      })));
    },
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      get startCursor() {
        return last >= 0 ? cursorAt(0) : null;
      },
      get endCursor() {
        return page.hasNextPage && last >= 0 ? cursorAt(last) : null;
      },
    },
  };
}

/** A plugin-relay connection over `node` (edges, pageInfo, the `nodes` shortcut) with a lazy totalCount. */
export function connectionOf<T>(name: string, node: ObjectRef<Types, T>) {
  const ref = builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      description: `One page of ${name} rows, read forward with \`first\` and \`after\` (Relay connection).`,
      fields: (t) => ({
        totalCount: t.int({ description: 'Size of the whole filtered set.', resolve: (c) => (c as ConnectionResult<T>).page.totalCount() }),
      }),
    },
    { name: `${name}Edge`, description: `A ${name} row of a page, with its cursor.` },
  );
  // Pothos types a connection's parent as its edges and pageInfo; ours also carries the page (toConnection).
  return ref as unknown as ObjectRef<Types, ConnectionResult<T>>;
}
