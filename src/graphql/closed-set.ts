/**
 * Options for a String field whose values form a closed set: the set is stated in its description and given to the
 * OpenAPI document as an enum (src/rest/openapi-schemas.ts reads `extensions.jsonSchema`), so REST clients generated
 * from it get unions of literals. The GraphQL types stay String until the schema gets real enums (issue 14).
 */
export function closedSet(
  values: readonly string[],
  note = '',
): { description: string; extensions: { jsonSchema: { type: 'string'; enum: string[] } } } {
  const listed = values.length === 1 ? `Always ${values[0]}.` : `One of ${values.join(', ')}.`;
  return { description: `${listed}${note ? ` ${note}` : ''}`, extensions: { jsonSchema: { type: 'string', enum: [...values] } } };
}
