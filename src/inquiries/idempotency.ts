import { createHash, randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { ApiError } from '../errors/api-error.js';
import {
  claimIdempotencyKey,
  deleteClaimInProgress,
  deleteClaimsInProgress,
  deleteExpiredRecords,
  readIdempotencyRecord,
  takeOverStaleClaim,
  type Claim,
  type ClaimColumns,
  type IdempotencyKey,
} from './inquiries.queries.js';

export type { Claim };

/** §4.12: keys are remembered 24 hours. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-progress claim older than this belongs to a crashed request and may be retaken. @default 30 s */
export const LEASE_MS = 30_000;

/** JSON with every object's keys sorted, recursively: the same body in any key order has one fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type ClaimOutcome<R> = { kind: 'claimed'; claim: Claim } | { kind: 'replay'; response: R };

export interface ClaimRequest extends IdempotencyKey {
  bodyHash: string;
}

/**
 * Claims (apiKeyId, scope, key) atomically: INSERT … ON CONFLICT DO NOTHING on the unique index, so of N concurrent
 * requests on any number of nodes exactly one claims it. Otherwise: a completed record with the same body is replayed;
 * a different body is idempotency_conflict; a live claim is idempotency_in_progress; an expired record or a lapsed
 * lease is retaken (compare-and-set on its token).
 */
export async function claimKey<R>(request: ClaimRequest, deps: { prisma: PrismaClient; now: () => Date }): Promise<ClaimOutcome<R>> {
  const { prisma } = deps;
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = deps.now();
    const fresh: ClaimColumns = {
      bodyHash: request.bodyHash,
      state: 'in_progress',
      token: randomUUID(),
      lockedUntil: new Date(now.getTime() + LEASE_MS),
      createdAt: now,
      expiresAt: new Date(now.getTime() + KEY_TTL_MS),
      inquiryId: null,
    };
    const id = randomUUID();
    if (await claimIdempotencyKey(prisma, id, request, fresh)) return { kind: 'claimed', claim: { id, token: fresh.token } };
    const existing = await readIdempotencyRecord(prisma, request);
    if (!existing) continue; // released between our insert and read: try again
    const expired = existing.expiresAt.getTime() <= now.getTime();
    const abandoned = existing.state === 'in_progress' && existing.lockedUntil.getTime() <= now.getTime();
    if (expired || abandoned) {
      if (await takeOverStaleClaim(prisma, existing, fresh)) return { kind: 'claimed', claim: { id: existing.id, token: fresh.token } };
      continue;
    }
    if (existing.bodyHash !== request.bodyHash) {
      throw new ApiError('idempotency_conflict', {
        hint: 'Use a new X-Idempotency-Key for a different request, or resend the original body.',
      });
    }
    if (existing.state === 'completed') return { kind: 'replay', response: existing.response as R };
    throw inProgress();
  }
  throw inProgress();
}

/** Seconds a client should wait before retrying a key whose first request still runs (most finish well within it). */
export const IN_PROGRESS_RETRY_SECONDS = 2;

/**
 * 409 idempotency_in_progress. The wait is in the message and hint, not in Retry-After: §8.3 gives that header to 429
 * answers only, and clients that honour it generically would treat this conflict as a rate limit.
 */
export function inProgress(): ApiError {
  return new ApiError('idempotency_in_progress', {
    message: `A request with this idempotency key is still processing; retry in ${IN_PROGRESS_RETRY_SECONDS} seconds.`,
    hint: `Retry after ${IN_PROGRESS_RETRY_SECONDS} seconds with the same X-Idempotency-Key and body.`,
  });
}

/**
 * Gives the key back after a refusal (4xx) or a failure (5xx): only completed outcomes are remembered, so a record
 * already completed is kept (inquiries.queries.ts, deleteClaimInProgress, says why).
 */
export async function releaseClaim(claim: Claim, deps: { prisma: PrismaClient }): Promise<void> {
  await deleteClaimInProgress(deps.prisma, claim);
}

/**
 * Frees every in-progress claim: for a server starting on the embedded database, where it is the only process that
 * creates leads, so a claim still in progress was left by its own previous run (killed mid-request) and nobody holds
 * it. Without this a client retrying that request would get idempotency_in_progress until the 30 s lease lapsed. Never
 * on PostgreSQL, where other nodes' claims are live. Returns how many were freed.
 */
export async function releaseClaimsOfPreviousRun(deps: { prisma: PrismaClient }): Promise<number> {
  return deleteClaimsInProgress(deps.prisma);
}

/** How often the server sweeps expired idempotency records, milliseconds. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes records past their 24 h memory (§4.12): an expired key is already treated as new by claimKey, so this only
 * keeps the table from growing. An in-progress claim is never expired (its lease is 30 s, its memory 24 h).
 * Returns how many were deleted.
 */
export async function sweepExpiredIdempotency(deps: { prisma: PrismaClient; now: () => Date }): Promise<number> {
  return deleteExpiredRecords(deps.prisma, deps.now());
}
