// graphql-jit (REST route documents, src/rest/adapter.ts) builds a new response path chain for every resolver call,
// where graphql-js shares one link per field and row. plugin-prisma keys its per-request plans and mappings by the
// identity of those links (@pothos/selection-mapper memoises a path's string in a WeakMap per link): with jit's
// chains every call rebuilt and re-memoised the whole path (9.4 % of R1's CPU profile) and a row's scope was never
// found again. This plugin hands those resolvers one shared link per path, as graphql-js does.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';

interface PathLink {
  readonly prev: PathLink | undefined;
  readonly key: string | number;
  readonly typename: string | undefined;
}

interface SharedLink extends PathLink {
  readonly prev: SharedLink | undefined;
  next?: Map<string | number, SharedLink>;
}

/** Per request: the one link for each path seen, by its parent link and key. */
export type ResponsePathLinks = (path: PathLink) => SharedLink;

export function createResponsePathLinks(): ResponsePathLinks {
  const roots = new Map<string | number, SharedLink>();
  const shared = (path: PathLink): SharedLink => {
    const prev = path.prev ? shared(path.prev) : undefined;
    const siblings = prev ? (prev.next ??= new Map()) : roots;
    let link = siblings.get(path.key);
    if (!link) {
      link = { prev, key: path.key, typename: path.typename };
      siblings.set(path.key, link);
    }
    return link;
  };
  return shared;
}

/** The fields plugin-prisma resolves by path: a Prisma object's relation and selected fields, and every object-valued field above them. */
function resolvesByPath<Types extends SchemaTypes>(field: PothosOutputFieldConfig<Types>): boolean {
  if (field.kind === 'PrismaObject' && field.extensions?.pothosPrismaSelect) return true;
  const type = field.type.kind === 'List' ? field.type.type : field.type;
  return type.kind !== 'Scalar' && type.kind !== 'Enum';
}

const pluginName = 'sharedResponsePaths';

export class SharedResponsePathsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: GraphQLFieldResolver<unknown, Types['Context']>, field: PothosOutputFieldConfig<Types>) {
    if (!resolvesByPath(field)) return resolver;
    return ((parent, args, context: { responsePathLinks?: ResponsePathLinks }, info) => {
      // Set only where graphql-jit executes; graphql-js's links are shared already.
      if (context.responsePathLinks) (info as { path: PathLink }).path = context.responsePathLinks(info.path);
      return resolver(parent, args, context as Types['Context'], info);
    }) as GraphQLFieldResolver<unknown, Types['Context']>;
  }
}

declare global {
  // Pothos finds a plugin's type by merging into its global namespace; there is no module form.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      sharedResponsePaths: SharedResponsePathsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, SharedResponsePathsPlugin);

export default pluginName;
