/**
 * Named (server-side prepared) statements for PostgreSQL. Prisma sends each statement unnamed by default, so the
 * server parses and analyses the same few dozen SQL texts on every request, and the driver sends each text (several
 * KB for a search with its joined relations) again. Naming a text lets each connection parse it once and then only
 * bind and execute it: R1 (venue search) served ~7 % more requests per second in an A/B on one database
 * (docs/performance.md, stop 21).
 *
 * Every connection also runs with plan_cache_mode = force_custom_plan: a prepared statement is still planned for its
 * own parameter values on every execution, as an unnamed one is. PostgreSQL's default may switch a statement to one
 * generic plan after five executions, and a generic plan for a price band or a venue type chosen from the first few
 * requests could be the wrong one for the next (the 100k plans in docs/performance.md, "Scale", depend on the values).
 *
 * Not for the embedded database: PGlite is one session behind every socket connection, so two connections preparing
 * the same name would collide. Not behind a pooler that moves sessions between clients (PgBouncer's transaction
 * mode before 1.21): DATABASE_PREPARED_STATEMENTS=false turns this off.
 */

/**
 * How many distinct SQL texts get a name, per process. Prisma writes one text per query shape (the values are
 * parameters), so a few hundred cover the API; a shape past the bound runs unnamed, so a client that finds a way to
 * make new shapes cannot grow every connection's statement cache without end.
 */
export const NAMED_STATEMENT_LIMIT = 1000;

/** The statement name of each SQL text, stable for the life of the process; undefined (unnamed) past `limit`. */
export function statementNamer(limit = NAMED_STATEMENT_LIMIT): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined && names.size < limit) names.set(sql, (name = `wv_${names.size}`));
    return name;
  };
}

/**
 * The connection URL with plan_cache_mode = force_custom_plan added to its `options` (startup parameters). pg lets
 * the URL's own parameters win over the pool's config, so the setting is added to the URL, after any `options` the
 * URL already had.
 */
export function withCustomPlans(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get('options');
  url.searchParams.set('options', `${options ? `${options} ` : ''}-c plan_cache_mode=force_custom_plan`);
  return url.toString();
}
