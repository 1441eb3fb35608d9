import DataLoader from 'dataloader';
import { isObjectType, type GraphQLResolveInfo } from 'graphql';
import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from './context.js';
import { builder, type Types } from './builder.js';

/** The Prisma arguments plugin-prisma plans from a selection. */
export type NodeQuery = { select?: Record<string, unknown>; include?: Record<string, unknown> };

/** How one entity type is found by the key inside its global id. */
export interface NodeSource<Row> {
  /** The column the global id wraps: the primary key, so a renamed slug keeps its cache entry. */
  key: keyof Row & string;
  /** The key as stored, or null when it could name no row at all (a malformed UUID never reaches the database). */
  parseKey: (key: string) => string | null;
  /** Prisma model types: each load selects what the query under node/nodes asks for (one statement, relations joined). */
  planned?: boolean;
  /**
   * The rows among `keys` that the module's REST routes would show (published venues, active vendors, posts that are
   * out…), in any order: one call for all the ids of a type in a request.
   */
  load: (keys: string[], query: NodeQuery, ctx: RequestContext) => Promise<Row[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Key parser for UUID primary keys (stored lower-case). */
export const uuidKey = (key: string): string | null => (UUID.test(key.toLowerCase()) ? key.toLowerCase() : null);

/** Key parser for slug primary keys (blog authors and tags, vendor categories). */
export const slugKey = (key: string): string | null => (key.length > 0 && key.length <= 300 ? key : null);

/** nodes(ids:) answers at most this many ids, as GitHub does. */
export const MAX_NODE_IDS = 100;

/** One loader per request, type and planned selection: every id of a type in one nodes(ids:) becomes one load. */
const loaders = new WeakMap<RequestContext, Map<string, DataLoader<string, unknown>>>();

function loaderFor<Row>(ctx: RequestContext, typename: string, query: NodeQuery, source: NodeSource<Row>) {
  let byKey = loaders.get(ctx);
  if (!byKey) loaders.set(ctx, (byKey = new Map()));
  const cacheKey = `${typename}:${JSON.stringify(query)}`;
  let loader = byKey.get(cacheKey);
  if (!loader) {
    // The key column must come back to match rows to ids, whatever the selection chose.
    const planned = query.select ? Object.assign({}, query, { select: Object.assign({}, query.select, { [source.key]: true }) }) : query;
    loader = new DataLoader<string, unknown>(async (keys) => {
      const rows = await source.load([...keys], planned, ctx);
      const byId = new Map(rows.map((row) => [String(row[source.key]), row]));
      return keys.map((key) => byId.get(key) ?? null);
    });
    byKey.set(cacheKey, loader);
  }
  return loader;
}

/** Makes an object type a Relay Node: `id: ID!` (base64 of `Type:key`) and loadable by node(id:) and nodes(ids:). */
export function asNode<Row extends object>(ref: ObjectRef<Types, Row>, source: NodeSource<Row>) {
  const typename = ref.name;
  builder.nodeRef<Row, string, ObjectRef<Types, Row>>(ref, {
    id: {
      resolve: (row) => String(row[source.key]),
      parse: (key) => {
        const parsed = source.parseKey(key);
        if (parsed === null) throw new ApiError('invalid_id', { param: 'id' });
        return parsed;
      },
    },
    loadWithoutCache: (key, ctx, info) => {
      const query = source.planned ? (queryFromInfo({ context: ctx, info, typeName: typename }) as NodeQuery) : {};
      return loaderFor(ctx, typename, query, source).load(key) as Promise<Row | null>;
    },
  });
  return ref;
}

/**
 * A global id as resolveNodes takes it, or null when it cannot name a visible entity: not base64 of `Type:key`, a type
 * that is not a Node, or a key the type could never have (GitHub answers such ids with null too).
 */
function decodeNodeId(globalId: string, info: GraphQLResolveInfo): { typename: string; id: string } | null {
  try {
    const { typename, id } = decodeGlobalID(globalId);
    const type = info.schema.getType(typename);
    if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Node')) return null;
    const parse = type.extensions.pothosParseGlobalID as ((key: string) => string) | undefined;
    return { typename, id: parse ? parse(id) : id };
  } catch {
    return null;
  }
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'The entity with this global id (any Node `id`), or null when the id is malformed, unknown, or names something the catalogue does not show (an unpublished venue, an inactive vendor, a draft post).',
    args: { id: t.arg.id({ required: true, description: 'A global id, as read from any Node `id`.' }) },
    resolve: async (_root, args, ctx, info) => (await resolveNodes(builder, ctx, info, [decodeNodeId(String(args.id), info)]))[0] as never,
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `The entities with these global ids, in the same order; null for each id node(id:) would answer with null. At most ${MAX_NODE_IDS} ids, loaded in one batch per type however many there are.`,
    args: { ids: t.arg.idList({ required: true, description: `Global ids, at most ${MAX_NODE_IDS}.` }) },
    resolve: async (_root, args, ctx, info) => {
      if (args.ids.length > MAX_NODE_IDS) {
        throw new ApiError('invalid_parameters', { problems: [{ param: 'ids', problem: `must list at most ${MAX_NODE_IDS} ids` }] });
      }
      return (await resolveNodes(
        builder,
        ctx,
        info,
        args.ids.map((id) => decodeNodeId(String(id), info)),
      )) as never;
    },
  }),
}));
