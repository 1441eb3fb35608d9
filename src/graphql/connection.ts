import type { ObjectRef } from '@pothos/core';
import { builder, type Types } from './builder.js';

/** A page of a cursor-paginated list, as services return it. `totalCount` runs only when selected. */
export interface Page<T> {
  nodes: T[];
  /** Signed cursor that resumes after `node`. */
  cursorOf: (node: T) => string;
  hasNextPage: boolean;
  totalCount: () => Promise<number>;
}

export const PageInfo = builder.objectRef<Page<unknown>>('PageInfo').implement({
  description: 'Relay page info. Pages are read forward: pass endCursor as `after` (REST: next_cursor as `cursor`).',
  fields: (t) => ({
    hasNextPage: t.boolean({ resolve: (p) => p.hasNextPage }),
    hasPreviousPage: t.boolean({ description: 'Always false: pages are read forward only.', resolve: () => false }),
    startCursor: t.string({ nullable: true, resolve: (p) => (p.nodes.length ? p.cursorOf(p.nodes[0]) : null) }),
    endCursor: t.string({
      nullable: true,
      description: 'Cursor of the next page; null on the last page.',
      resolve: (p) => (p.hasNextPage && p.nodes.length ? p.cursorOf(p.nodes[p.nodes.length - 1]) : null),
    }),
  }),
});

/** A Relay connection over `node`, with totalCount and a `nodes` shortcut. */
export function connectionOf<T>(name: string, node: ObjectRef<Types, T>) {
  const Edge = builder.objectRef<{ node: T; cursor: string }>(`${name}Edge`).implement({
    fields: (t) => ({
      // Pothos cannot relate a generic T to its resolver result type; the ref guarantees it.
      node: t.field({ type: node, resolve: (e) => e.node as never }),
      cursor: t.string({ resolve: (e) => e.cursor }),
    }),
  });
  return builder.objectRef<Page<T>>(`${name}Connection`).implement({
    fields: (t) => ({
      totalCount: t.int({ description: 'Size of the whole filtered set.', resolve: (p) => p.totalCount() }),
      pageInfo: t.field({ type: PageInfo, resolve: (p) => p as Page<unknown> }),
      nodes: t.field({ type: [node], resolve: (p) => p.nodes as never }),
      edges: t.field({ type: [Edge], resolve: (p) => p.nodes.map((n) => ({ node: n, cursor: p.cursorOf(n) })) }),
    }),
  });
}
