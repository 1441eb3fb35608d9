import {
  BREAK,
  Kind,
  TypeInfo,
  getNamedType,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLSchema,
} from 'graphql';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import type { ArgumentFinder, NumberRefusal, RefusedArgument } from '../errors/classify.js';

export type { NumberRefusal, RefusedArgument };
import { parseVenueSearch } from '../venues/venues.inputs.js';
import { parseVendorSearch } from '../vendors/vendors.inputs.js';
import { parseInspirationSearch } from '../inspiration/inspiration.inputs.js';
import { parseKnowledgeSearch } from '../knowledge/knowledge.inputs.js';
import { parseBlogPosts } from '../blog/blog.inputs.js';
import { parsePricingEstimate, parseRegionalRange } from '../pricing/pricing.inputs.js';

/**
 * The module parser of each root field whose arguments it reads (keys are the GraphQL argument names, as the fields'
 * resolvers pass them). GraphQL's coercion refuses some numbers before that parser runs — a fraction or a string for
 * an Int, a number past 32 bits — and REST's reading of a query string refuses others (an exponent); the parser is
 * where the argument's bounds live, so those refusals are its own: the same code, words and bounds as a value it
 * refuses itself (`first: 1.5` says "first must be an integer from 1 to 100", `first: 500` "first must be 1 to 100").
 */
const ARGUMENT_PARSERS: Record<string, (args: Record<string, unknown>) => unknown> = {
  'Query.venues': parseVenueSearch,
  'Query.vendors': parseVendorSearch,
  'Query.inspirationPhotos': parseInspirationSearch,
  'Query.knowledgeSearch': parseKnowledgeSearch,
  'Query.blogPosts': parseBlogPosts,
  'Query.pricingEstimate': parsePricingEstimate,
  'Query.regionalCostRange': parseRegionalRange,
};

/**
 * How `argument` of the field at `coordinate` (`Query.venues`) refuses a value, for an Int or Float argument whose
 * field has a parser; null for any other. The parser sees that argument alone, and only what it says of that
 * argument is kept (knowledgeSearch's parser would also say q is required).
 */
export function numberRefusalOf(coordinate: string, argument: GraphQLArgument): NumberRefusal | null {
  const parse = ARGUMENT_PARSERS[coordinate];
  const type = getNamedType(argument.type).name;
  if (!parse || (type !== 'Int' && type !== 'Float')) return null;
  return (value) => {
    try {
      parse({ [argument.name]: value });
      return null;
    } catch (e) {
      if (!(e instanceof ApiError)) return null;
      const own = e.problems?.filter((p) => p.param === argument.name);
      if (own?.length) return new ApiError(e.code, { problems: own });
      return !e.problems && e.param === argument.name ? e : null;
    }
  };
}

const VALUE_KINDS = new Set<string>([Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM, Kind.LIST, Kind.OBJECT]);

const within = (inner: ASTNode, outer: ASTNode) =>
  inner === outer || (!!inner.loc && !!outer.loc && outer.loc.start <= inner.loc.start && inner.loc.end <= outer.loc.end);

function findArgument(
  document: DocumentNode,
  schema: GraphQLSchema | undefined,
  match: (argument: ArgumentNode) => boolean,
  written?: ASTNode,
): RefusedArgument | null {
  const typeInfo = schema ? new TypeInfo(schema) : null;
  let found: RefusedArgument | null = null;
  const visitor: ASTVisitor = {
    Argument(argument) {
      if (!match(argument)) return undefined;
      const definition = typeInfo?.getArgument();
      const code = definition?.extensions?.refusalCode as ErrorCode | undefined;
      const field = typeInfo?.getFieldDef();
      const parent = typeInfo?.getParentType();
      const refuse = definition && field && parent ? numberRefusalOf(`${parent.name}.${field.name}`, definition) : null;
      found = {
        name: argument.name.value,
        ...(code ? { code } : {}),
        ...(refuse ? { refuse } : {}),
        ...(written && written === argument.value ? { written: { value: valueFromASTUntyped(argument.value) } } : {}),
      };
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
  return findArgument(document, schema, (argument) => argument === node || within(node, argument.value), node);
}

/** The argument a variable is given to. */
export function argumentFedBy(document: DocumentNode, variable: string, schema?: GraphQLSchema): RefusedArgument | null {
  return findArgument(document, schema, (argument) => argument.value.kind === Kind.VARIABLE && argument.value.name.value === variable);
}

/**
 * The arguments of `document`, as the error classifier searches them (src/errors/classify.ts): it says what a refused
 * value means once it knows whose argument it was.
 */
export function argumentsOf(document: DocumentNode, schema?: GraphQLSchema): ArgumentFinder {
  return {
    holding: (node) => argumentHolding(document, node, schema),
    fedBy: (variable) => argumentFedBy(document, variable, schema),
  };
}
