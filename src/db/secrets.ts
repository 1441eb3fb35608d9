import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * A secret every node of a deployment shares (they share the database): created once by whichever node asks first,
 * then read by all. Creating with skipDuplicates makes concurrent first starts agree on one value.
 */
export async function sharedSecret(prisma: PrismaClient, name: string): Promise<string> {
  await prisma.appSecret.createMany({ data: [{ name, value: randomBytes(32).toString('base64url') }], skipDuplicates: true });
  const row = await prisma.appSecret.findUniqueOrThrow({ where: { name } });
  return row.value;
}
