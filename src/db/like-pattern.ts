/**
 * `text` for a LIKE or ILIKE pattern, matched as written: its wildcards (% and _) and the escape character (\, the
 * default) taken literally. Prisma's `contains` and insensitive `equals` pass their value into the pattern as it is,
 * so unescaped, `venue_type=%` matched every venue.
 */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
