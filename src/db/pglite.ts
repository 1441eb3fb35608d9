import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * Every PGlite this project opens, for the app, the migrator, its shadow database and tests. The migrations create
 * pg_trgm (trigram indexes for the substring filters, docs/performance.md); PGlite ships it in its contrib set but
 * can only run CREATE EXTENSION, or use such an index, when the extension is loaded here.
 */
export function createPGlite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: { pg_trgm } });
}
