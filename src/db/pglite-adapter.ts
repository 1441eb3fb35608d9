import type { PGlite } from '@electric-sql/pglite';
import { createPGlite } from './pglite.js';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/** The members of pglite-prisma-adapter's adapter that its published types hide but the fix below relies on. */
interface PGliteAdapterInternals {
  client: PGlite;
  onError(error: unknown): never;
  executeScript(script: string): Promise<void>;
}

/**
 * pglite-prisma-adapter 0.7.2 calls `client.exec(script)` without awaiting it, so a failing migration script is
 * reported as applied (its statements are rolled back while `_prisma_migrations.finished_at` gets set).
 * Awaiting it lets the schema engine see the error and record the migration as failed.
 */
function awaitExecuteScript(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const internals = adapter as unknown as PGliteAdapterInternals;
  internals.executeScript = async (script: string) => {
    try {
      await internals.client.exec(script);
    } catch (error) {
      internals.onError(error);
    }
  };
  return adapter;
}

export interface PGliteAdapterOptions {
  /**
   * Database handed to the schema engine when it asks for a shadow database (replaying migrations to diff them).
   * The caller keeps ownership of it. By default a fresh in-memory PGlite is booted (3–7 s) and closed once the
   * engine disposes of it.
   */
  shadow?: PGlite;
}

/**
 * Prisma adapter factory over one PGlite instance, for the client and the schema engine alike.
 * The factory never closes `pglite`: whoever created it does.
 */
export function createPGliteAdapterFactory(pglite: PGlite, options: PGliteAdapterOptions = {}): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPGlite(pglite);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => awaitExecuteScript(await inner.connect()),
    connectToShadowDb: async () => {
      if (options.shadow) return awaitExecuteScript(await new PrismaPGlite(options.shadow).connect());
      // The upstream factory boots a shadow PGlite it never closes; this one goes away with the adapter.
      const shadow = await createPGlite();
      const adapter = awaitExecuteScript(await new PrismaPGlite(shadow).connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await shadow.close();
      };
      return adapter;
    },
  };
}
