import { createHash } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Names for PostgreSQL's prepared statements. An unnamed statement is parsed, analysed and planned again on every
 * execution; a named one is parsed once per connection, and after five runs the server may keep one generic plan for
 * it, made without the parameters' values. Prisma's relation joins (LATERAL subqueries building JSON) cost the server
 * more to plan than to run, so naming them pays (docs/performance.md, Levers). Only statements whose best plan cannot
 * depend on their values are named, and that is declared where they are written, never read back from SQL text:
 * a driver read is named unless its call says `planForValues` (row-reader.ts), a Prisma statement when the operation
 * that sent it is one `plansAlikeForAnyValues` admits (told by Prisma's SQL commenter hook, `namingPlugin`). A
 * catalogue search is not: named, the venue price bands on a large catalogue became many times slower under a
 * generic plan made for other bounds.
 *
 * A name is a hash of the statement's text, so a text has the same name on every connection and every node, whatever
 * order texts arrive in. The set is bounded, since a kept plan costs the server memory on every connection (a vendor
 * detail's: 131 KB): a text past NAMED_STATEMENTS_MAX runs unnamed.
 */
export interface StatementNames {
  /** Names `sql` (or returns the name it has): a statement declared to plan alike for any values. Undefined past the bound. */
  name(sql: string): string | undefined;
  /** The name `sql` was given by `name`, or undefined: run it unnamed. */
  nameOf(sql: string): string | undefined;
}

/** How many distinct statements one process prepares by name, per kind; later ones run unnamed. */
export const NAMED_STATEMENTS_MAX = 100;

/** `wv_<prefix>_` and 24 hex digits of the text's SHA-1: 96 bits, well inside PostgreSQL's 63-byte names. */
export function statementName(prefix: string, sql: string): string {
  return `wv_${prefix}_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
}

export function createStatementNames(options: { prefix: string; max?: number }): StatementNames {
  const { prefix, max = NAMED_STATEMENTS_MAX } = options;
  const names = new Map<string, string>();
  return {
    name(sql) {
      let name = names.get(sql);
      if (name === undefined && names.size < max) {
        name = statementName(prefix, sql);
        names.set(sql, name);
      }
      return name;
    },
    nameOf: (sql) => names.get(sql),
  };
}

/** A SQL commenter plugin, as PrismaClient's `comments` option takes it. */
type SqlCommenterPlugin = NonNullable<Prisma.PrismaClientOptions['comments']>[number];
type PrismaOperation = Parameters<SqlCommenterPlugin>[0]['query'];

/** Prisma's reads of one row by a unique key: found through the key's index whatever the value. */
const UNIQUE_READS: ReadonlySet<string> = new Set<PrismaOperation['action']>(['findUnique', 'findUniqueOrThrow']);
const READS: ReadonlySet<string> = new Set<PrismaOperation['action']>([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'aggregate',
  'groupBy',
]);

/**
 * Curated content: a few thousand rows at most however large the catalogue grows (2,400 inspiration photos, dozens of
 * posts, tags, authors, categories, knowledge sections), so any plan of a list or count over one of them reads it in
 * about a millisecond, and a generic plan cannot go far wrong.
 */
const EDITORIAL_MODELS: ReadonlySet<string> = new Set<Prisma.ModelName>([
  'BlogPost',
  'BlogTag',
  'BlogAuthor',
  'InspirationPhoto',
  'KnowledgeChunk',
  'VendorCategory',
]);

/**
 * Whether the statements of a Prisma operation plan alike whatever their parameters' values, so PostgreSQL may keep
 * one plan: a read by a unique key, or any read of curated content. Searches and counts of the catalogue (venues,
 * vendors) are not: their plans follow the filter values. Raw queries have no model and are never named, nor are
 * batches of unique reads Prisma compacts into one statement: one text per batch size (`IN ($1,$2)`, `IN ($1,$2,$3)`…)
 * would fill the bound.
 */
export function plansAlikeForAnyValues(operation: Pick<PrismaOperation, 'type' | 'action' | 'modelName'>): boolean {
  const { type, action, modelName } = operation;
  if (type !== 'single' || modelName === undefined) return false;
  return UNIQUE_READS.has(action) || (READS.has(action) && EDITORIAL_MODELS.has(modelName));
}

const NO_TAGS = Object.freeze({});

/**
 * Prisma's supported hook between an operation and its SQL: a SQL commenter plugin sees each statement's text with
 * the operation that rendered it, before the driver adapter sends it. This one adds no comment (so the text is sent
 * unchanged) and names the statement when its operation plans alike; the adapter's statementNameGenerator then finds
 * the name by the same text (`nameOf`).
 */
export function namingPlugin(names: StatementNames): SqlCommenterPlugin {
  return ({ query, sql }) => {
    if (sql !== undefined && plansAlikeForAnyValues(query)) names.name(sql);
    return NO_TAGS;
  };
}
