import { Prisma, type IdempotencyRecord } from '../generated/prisma/client.js';

/**
 * The inquiry module's data access, through Prisma's client: the target a lead is for (§4.10, §4.11), the lead and its
 * outbox row, and the idempotency records (§4.12). Each function runs on the client it is given, the PrismaClient or a
 * transaction's: which statements commit together is the service's decision.
 */

/** A transaction's client; the PrismaClient is one too. */
type Db = Prisma.TransactionClient;

/** The idempotency key of a request: unique per API key and scope. */
export interface IdempotencyKey {
  apiKeyId: string;
  scope: string;
  key: string;
}

/** A claim this request holds: only it can complete or release the record (the token changes when it is retaken). */
export interface Claim {
  id: string;
  token: string;
}

/** The columns a claim writes, on a new record or a retaken one. */
export interface ClaimColumns {
  bodyHash: string;
  state: 'in_progress';
  token: string;
  lockedUntil: Date;
  createdAt: Date;
  expiresAt: Date;
  inquiryId: null;
}

/** The id of the published venue with this slug, or undefined. */
export async function findListedVenueId(db: Db, slug: string): Promise<string | undefined> {
  const venue = await db.venue.findFirst({ where: { slug, published: true }, select: { id: true } });
  return venue?.id;
}

/** The vendor with this slug, with what decides whether it takes leads (active, affiliate only), or null. */
export function findVendorForLead(db: Db, slug: string) {
  return db.vendor.findUnique({ where: { slug }, select: { id: true, active: true, isAffiliateOnly: true, affiliateLink: true } });
}

export async function insertLead(db: Db, row: Prisma.InquiryUncheckedCreateInput): Promise<void> {
  await db.inquiry.create({ data: row });
}

/** The lead's outbox row, due at once (src/notify/dispatcher.ts delivers it). */
export async function insertLeadNotification(
  db: Db,
  { id, inquiryId, at, payload }: { id: string; inquiryId: string; at: Date; payload: Prisma.InputJsonValue },
): Promise<void> {
  await db.notificationOutbox.create({ data: { id, inquiryId, nextAttemptAt: at, createdAt: at, payload } });
}

/**
 * Marks the claim completed with its lead and the response a retry replays. False when the claim is no longer this
 * request's (its lease lapsed and another request retook the key).
 */
export async function completeClaim(db: Db, claim: Claim, inquiryId: string, response: Prisma.InputJsonObject): Promise<boolean> {
  const done = await db.idempotencyRecord.updateMany({
    where: { id: claim.id, token: claim.token, state: 'in_progress' },
    data: { state: 'completed', inquiryId, response },
  });
  return done.count === 1;
}

/**
 * Inserts the record as record `id` unless the key has one: INSERT … ON CONFLICT DO NOTHING on the unique index, so of
 * concurrent claims on any number of nodes exactly one inserts. True when this one did.
 */
export async function claimIdempotencyKey(db: Db, id: string, { apiKeyId, scope, key }: IdempotencyKey, claim: ClaimColumns): Promise<boolean> {
  const inserted = await db.idempotencyRecord.createMany({
    data: [{ id, apiKeyId, scope, key, ...claim }],
    skipDuplicates: true,
  });
  return inserted.count === 1;
}

export function readIdempotencyRecord(db: Db, { apiKeyId, scope, key }: IdempotencyKey): Promise<IdempotencyRecord | null> {
  return db.idempotencyRecord.findUnique({
    where: { apiKeyId_scope_key: { apiKeyId, scope, key } },
  });
}

/**
 * Retakes an expired record or a lapsed claim (`held`, as read) for a new claim, compare-and-set on its token: true
 * when no other request retook it first. The old response is cleared.
 */
export async function takeOverStaleClaim(db: Db, held: Claim, claim: ClaimColumns): Promise<boolean> {
  const taken = await db.idempotencyRecord.updateMany({
    where: { id: held.id, token: held.token },
    data: { ...claim, response: Prisma.DbNull },
  });
  return taken.count === 1;
}

export async function deleteClaimInProgress(db: Db, claim: Claim): Promise<void> {
  // Only while still in progress: a transaction whose COMMIT took effect but whose acknowledgement was lost (the
  // connection dropped) looks failed to its caller, and deleting its completed record would let the retry write a
  // second lead. Kept, the retry replays the stored 201.
  await db.idempotencyRecord.deleteMany({ where: { id: claim.id, token: claim.token, state: 'in_progress' } });
}

/** Deletes every in-progress claim; returns how many. */
export async function deleteClaimsInProgress(db: Db): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { state: 'in_progress' } });
  return count;
}

/** Deletes the records expired at `now` whose lease has lapsed too (a claim is never deleted under its request); returns how many. */
export async function deleteExpiredRecords(db: Db, now: Date): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now }, lockedUntil: { lte: now } } });
  return count;
}
