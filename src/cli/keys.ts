import { parseArgs } from 'node:util';
import type { PrismaClient } from '../generated/prisma/client.js';
import { API_TIERS, createApiKey, listApiKeys, revokeApiKey, type ApiTier } from '../auth/api-keys.service.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `Usage:
  npm run -s keys -- create --tier free|pro|partner [--name TEXT]   prints the new key alone on standard output
  npm run -s keys -- list                                           prefix, tier, name, created, revoked
  npm run -s keys -- revoke PREFIX                                  e.g. wv_live_Ab12Cd34`;

/**
 * How a revocation reaches nodes that hold the key's row under a lease (src/auth/key-lease.ts): the command waits out
 * the lease after its commit, so the key is refused everywhere by the time it returns.
 */
export interface RevocationWait {
  leaseMs: number;
  wait: (ms: number) => Promise<void>;
}

/** The operator's key commands (§5.2: keys are issued manually). Returns the process exit code. */
export async function runKeysCli(
  argv: string[],
  prisma: PrismaClient,
  io: CliIo,
  revocation: RevocationWait = { leaseMs: 0, wait: async () => {} },
): Promise<number> {
  const options = { tier: { type: 'string' }, name: { type: 'string' } } as const;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof options }>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (e) {
    io.err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  switch (command) {
    case 'create': {
      const tier = parsed.values.tier;
      if (!tier || !API_TIERS.includes(tier as ApiTier)) {
        io.err(`--tier must be one of ${API_TIERS.join(', ')}\n${USAGE}`);
        return 2;
      }
      const { key, summary } = await createApiKey({ tier: tier as ApiTier, name: parsed.values.name }, { prisma });
      io.out(key);
      io.err(`Created ${summary.tier} key ${summary.prefix}… (shown once; only its hash is stored).`);
      return 0;
    }
    case 'list': {
      for (const k of await listApiKeys({ prisma })) {
        io.out(
          [k.prefix, k.tier, k.name ?? '-', k.createdAt.toISOString(), k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'].join('\t'),
        );
      }
      return 0;
    }
    case 'revoke': {
      const prefix = rest[0];
      if (!prefix) {
        io.err(`revoke needs a key prefix\n${USAGE}`);
        return 2;
      }
      if (!(await revokeApiKey(prefix, { prisma }))) {
        io.err(`No active key has the prefix ${prefix}.`);
        return 1;
      }
      if (revocation.leaseMs > 0) await revocation.wait(revocation.leaseMs);
      io.err(`Revoked ${prefix}: refused from the next request on.`);
      return 0;
    }
    default:
      io.err(USAGE);
      return 2;
  }
}
