import type { PrismaClient } from '../generated/prisma/client.js';
import type { Logger } from '../logging/logger.js';

/** How often a running node reads the catalogue's generation, milliseconds: a catalogue write reaches every node within it. */
export const GENERATION_POLL_MS = 5_000;

/**
 * The catalogue's generation, as committed. Any write to a table a cached answer reads raises it in the writer's own
 * transaction, whoever writes (statement triggers, migration catalogue_generation_triggers): the seed, the content
 * sync, psql. Every cached answer and day rate is keyed on the generation it was read under, so a raise retires them
 * all on every node.
 */
export async function readCatalogueGeneration(prisma: PrismaClient): Promise<number> {
  return (await prisma.catalogueState.findUnique({ where: { id: 1 } }))?.generation ?? 0;
}

export interface CatalogueGeneration {
  /** The generation this node last read (synchronous: read on the hot path of every cached request). */
  current: () => number;
  stop: () => void;
}

/**
 * Follows the generation in the database: read once at start, then every GENERATION_POLL_MS (one tiny query per node,
 * not per request). A failed read keeps the last value and is logged once per outage; answers stay correct for the
 * generation they name, and nothing writes the catalogue while the database is unreachable. `onChange` is called with
 * each new generation as soon as current() returns it (main.ts reads discovery's catalogue data ahead there).
 */
export async function followCatalogueGeneration(
  prisma: PrismaClient,
  log: Logger,
  { intervalMs = GENERATION_POLL_MS, onChange }: { intervalMs?: number; onChange?: (generation: number) => void } = {},
): Promise<CatalogueGeneration> {
  let generation = await readCatalogueGeneration(prisma);
  let failing = false;
  const timer = setInterval(() => {
    readCatalogueGeneration(prisma)
      .then((next) => {
        failing = false;
        if (next === generation) return;
        log.info({ from: generation, to: next }, 'catalogue changed: earlier cached answers retired');
        generation = next;
        try {
          onChange?.(next);
        } catch (err) {
          log.error({ err }, 'the catalogue change listener failed');
        }
      })
      .catch((err: Error) => {
        if (!failing) log.warn({ err }, 'could not read the catalogue generation; keeping the last one');
        failing = true;
      });
  }, intervalMs);
  timer.unref();
  return { current: () => generation, stop: () => clearInterval(timer) };
}
