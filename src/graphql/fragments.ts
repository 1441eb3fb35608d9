import { Kind, type DocumentNode, type FragmentDefinitionNode } from 'graphql';

/** A document's fragment definitions by name, for walks that follow fragment spreads. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
}
