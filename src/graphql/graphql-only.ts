/**
 * A description written for GraphQL readers (issue 14: every type, field and argument is described) on something a
 * REST route also exposes, where the OpenAPI document has had no text so far. The OpenAPI generator leaves such a
 * description out (src/rest/openapi-schemas.ts, restDescription), so the published REST contract does not change
 * with it; moving these texts into the OpenAPI document is a REST change for its own review.
 *
 * Spread into the options of a type, field or argument: `t.exposeString('name', { nullable: true, ...graphqlOnly('…') })`.
 */
export function graphqlOnly(description: string) {
  return { description, extensions: { [GRAPHQL_ONLY_DESCRIPTION]: true } };
}

/** The extension key graphqlOnly sets. */
export const GRAPHQL_ONLY_DESCRIPTION = 'graphqlOnlyDescription';

/**
 * The extension key of a description the REST contract keeps as it was while GraphQL's says more (a venue's detail
 * fields name the lookup they cost on GraphQL; REST's detail route states that itself).
 */
export const REST_DESCRIPTION = 'restDescription';
