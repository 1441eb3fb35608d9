import type { PrismaClient } from '../generated/prisma/client.js';
import type { RowReader } from '../db/row-reader.js';
import type { ApiTier } from '../generated/prisma/enums.js';

/**
 * The key store's reads and writes: a key's row by its lookup prefix (every request without a lease), and the keys
 * CLI's issue, list, revoke and count. Only a key's SHA-256 is ever written.
 */

/** A key's row as the request check reads it: its hash as hex text, its tier, whether it is revoked. */
export interface StoredKey {
  id: string;
  prefix: string;
  hash: string;
  tier: string;
  revoked: boolean;
}

/** The row of the key with this lookup prefix, if any. */
export async function readKeyByPrefix(prefix: string, readRows: RowReader): Promise<StoredKey | undefined> {
  // Runs on every request without a lease, so it is plain SQL through the driver: Prisma's findUnique cost more CPU
  // than its raw query, and that more than pg's own (docs/performance.md, Levers).
  const [row] = await readRows<StoredKey>(
    `SELECT id::text, prefix, hash, tier::text AS tier, "revokedAt" IS NOT NULL AS revoked FROM "ApiKey" WHERE prefix = $1`,
    [prefix],
  );
  return row;
}

/** Whether a key (revoked or not) holds this lookup prefix. */
export async function prefixTaken(prefix: string, prisma: PrismaClient): Promise<boolean> {
  return (await prisma.apiKey.findUnique({ where: { prefix }, select: { id: true } })) !== null;
}

export function insertKey(data: { prefix: string; hash: string; tier: ApiTier; name: string | null }, prisma: PrismaClient) {
  return prisma.apiKey.create({ data });
}

/** Every key, oldest first. */
export function readKeys(prisma: PrismaClient) {
  return prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } });
}

/** Marks the active key with this prefix revoked at `at`; false when no active key has it. */
export async function markRevoked(prefix: string, at: Date, prisma: PrismaClient): Promise<boolean> {
  const { count } = await prisma.apiKey.updateMany({ where: { prefix, revokedAt: null }, data: { revokedAt: at } });
  return count === 1;
}

export function countKeys(prisma: PrismaClient): Promise<number> {
  return prisma.apiKey.count();
}
