import type { ObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { builder, type Types } from './builder.js';
import type { Page } from '../pagination/page.js';

/**
 * Whether this connection field's query selects its own field `name` (totalCount, categoryStats) unconditionally. A
 * service then reads it with the page instead of after it: vendor search starts such a field's statement beside the
 * page's, so a search waits for the longer of the two, not their sum; venue search reads its count in the page's own
 * statement. A field under @include/@skip stays lazy.
 */
export function selectsConnectionField(info: GraphQLResolveInfo, name: string): boolean {
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((selection) => {
      if (selection.directives?.length) return false;
      if (selection.kind === 'Field') return selection.name.value === name;
      if (selection.kind === 'InlineFragment') return within(selection.selectionSet);
      return within(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet));
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
 *
 * The getters are on classes, never in object literals. V8 stores an object literal's getter in an accessor pair that
 * it always allocates in the old generation; the pair points at the getter's closure, whose scope holds the page, so
 * every page's rows survived young-generation GCs until the next full mark-compact.
 * A class keeps its getters on the prototype, allocated once.
 */
export function toConnection<T, P extends Page<T>>(page: P & Page<T>): ConnectionResult<T, P> {
  return new Connection(page);
}

class Connection<T, P extends Page<T>> implements ConnectionResult<T, P> {
  readonly pageInfo: PageInfo<T>;
  #edges: Edge<T>[] | undefined;
  readonly #cursors: PageCursors<T>;

  constructor(readonly page: P) {
    this.#cursors = new PageCursors(page);
    this.pageInfo = new PageInfo(page, this.#cursors);
  }

  get edges(): Edge<T>[] {
    return (this.#edges ??= this.page.nodes.map((node, index) => new Edge(node, index, this.#cursors)));
  }
}

/** Each row's cursor, signed on first read. */
class PageCursors<T> {
  readonly #signed: (string | undefined)[] = [];
  readonly #page: Page<T>;

  constructor(page: Page<T>) {
    this.#page = page;
  }

  at(index: number): string {
    return (this.#signed[index] ??= this.#page.cursorOf(this.#page.nodes[index]));
  }
}

class Edge<T> {
  readonly #index: number;
  readonly #cursors: PageCursors<T>;

  constructor(
    readonly node: T,
    index: number,
    cursors: PageCursors<T>,
  ) {
    this.#index = index;
    this.#cursors = cursors;
  }

  get cursor(): string {
    return this.#cursors.at(this.#index);
  }
}

class PageInfo<T> {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly #rows: number;
  readonly #cursors: PageCursors<T>;

  constructor(page: Page<T>, cursors: PageCursors<T>) {
    this.hasNextPage = page.hasNextPage;
    this.hasPreviousPage = page.hasPreviousPage;
    this.#rows = page.nodes.length;
    this.#cursors = cursors;
  }

  get startCursor(): string | null {
    return this.#rows ? this.#cursors.at(0) : null;
  }

  get endCursor(): string | null {
    return this.hasNextPage && this.#rows ? this.#cursors.at(this.#rows - 1) : null;
  }
}

/**
 * A plugin-relay connection over `node` (edges, pageInfo, the `nodes` shortcut) with a lazy totalCount. `edgeFields`:
 * what an edge says of its node beyond the node itself (a search's distance), read from the node.
 */
export function connectionOf<T>(
  name: string,
  node: ObjectRef<Types, T>,
  edgeFields?: (t: PothosSchemaTypes.ObjectFieldBuilder<Types, { node: T }>) => Record<string, unknown>,
) {
  const ref = builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      description: `One page of ${name} rows, read forward with \`first\` and \`after\` (Relay connection).`,
      fields: (t) => ({
        totalCount: t.int({ description: 'Size of the whole filtered set.', resolve: (c) => (c as ConnectionResult<T>).page.totalCount() }),
      }),
    },
    {
      name: `${name}Edge`,
      description: `A ${name} row of a page, with its cursor.`,
      ...(edgeFields ? { fields: edgeFields as never } : {}),
    },
  );
  // Pothos types a connection's parent as its edges and pageInfo; ours also carries the page (toConnection).
  return ref as unknown as ObjectRef<Types, ConnectionResult<T>>;
}
