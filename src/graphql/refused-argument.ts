import {
  BREAK,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/catalogue.js';

/** An argument a refused value was given to, and the code its own refusal has, if it names one. */
export interface RefusedArgument {
  name: string;
  /** The argument's `refusalCode` extension: the spec's code for a value outside its set (invalid_season, …). */
  code?: ErrorCode;
}

const VALUE_KINDS = new Set<string>([Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT]);

const within = (inner: ASTNode, outer: ASTNode) =>
  inner === outer || (!!inner.loc && !!outer.loc && outer.loc.start <= inner.loc.start && inner.loc.end <= outer.loc.end);

function findArgument(document: DocumentNode, schema: GraphQLSchema | undefined, match: (argument: ArgumentNode) => boolean): RefusedArgument | null {
  const typeInfo = schema ? new TypeInfo(schema) : null;
  let found: RefusedArgument | null = null;
  const visitor: ASTVisitor = {
    Argument(argument) {
      if (!match(argument)) return undefined;
      const code = typeInfo?.getArgument()?.extensions?.refusalCode as ErrorCode | undefined;
      found = { name: argument.name.value, ...(code ? { code } : {}) };
      return BREAK;
    },
  };
  visit(document, typeInfo ? visitWithTypeInfo(typeInfo, visitor) : visitor);
  return found;
}

/**
 * The argument an error's node is about: the argument itself (an unknown argument, a value its type cannot take) or
 * the argument whose written value holds the node; null for any other node.
 */
export function argumentHolding(document: DocumentNode, node: ASTNode, schema?: GraphQLSchema): RefusedArgument | null {
  if (node.kind !== Kind.ARGUMENT && !VALUE_KINDS.has(node.kind)) return null;
  return findArgument(document, schema, (argument) => argument === node || within(node, argument.value));
}

/** The argument a variable is given to. */
export function argumentFedBy(document: DocumentNode, variable: string, schema?: GraphQLSchema): RefusedArgument | null {
  return findArgument(document, schema, (argument) => argument.value.kind === Kind.VARIABLE && argument.value.name.value === variable);
}

/**
 * A value its argument cannot take: the argument's own code when it names one (the spec's invalid_season for the
 * estimator's season enum, as REST answers), else invalid_parameters naming `param` with GraphQL's message.
 */
export function argumentRefusal(argument: RefusedArgument | null, message: string, param: string): ApiError {
  if (argument?.code) return new ApiError(argument.code, { param: argument.name });
  return new ApiError('invalid_parameters', { message, param });
}
