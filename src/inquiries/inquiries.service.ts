import { randomUUID } from 'node:crypto';
import { REQUEST_TRANSACTION } from '../db/client.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { ApiKeyIdentity } from '../auth/api-keys.service.js';
import { ApiError } from '../errors/api-error.js';
import { isDeterministicDatabaseFailure } from '../errors/classify.js';
import type { Logger } from '../logging/logger.js';
import type { InquiryKind } from '../limits/limits.policy.js';
import { checkInquiry, refund, type Limits, type Ticket } from '../limits/limits.service.js';
import { IDEMPOTENCY_KEY_LENGTH, type InquiryInput } from './inquiries.inputs.js';
import { canonicalJson, claimKey, inProgress, releaseClaim, sha256, type Claim } from './idempotency.js';
import { completeClaim, findListedVenueId, findVendorForLead, insertLead, insertLeadNotification } from './inquiries.queries.js';

export interface InquiryDeps {
  prisma: PrismaClient;
  now: () => Date;
  limits: Limits;
  log: Logger;
}

/** Who sent the inquiry and how (stored with the lead). */
export interface InquirySender {
  apiKey: ApiKeyIdentity;
  surface: 'rest' | 'graphql';
  /** X-Idempotency-Key or the GraphQL idempotencyKey argument; absent → the body's fingerprint is the key (§4.12). */
  idempotencyKey?: string | null;
}

/** §2.10 data. */
export interface InquiryResult {
  inquiryId: string;
  status: 'submitted';
  message: string;
}

/** §3: what happens next, in the words the response gives the couple. */
export function nextStepsMessage(kind: InquiryKind, smsConsent: boolean): string {
  const channel = smsConsent ? 'by text message (you agreed to be texted)' : 'by e-mail';
  return kind === 'venue'
    ? `Inquiry submitted. Our team has been notified; a concierge will answer within 24 hours ${channel}.`
    : `Inquiry submitted. Our team screens it and forwards it to the vendor, who is expected to reply within 3 business days ${channel}.`;
}

/**
 * Creates one lead, idempotently (§4.10–4.12). Order: validate (nothing stored on a 400) → claim the key (replays and
 * 409s end here, taking no inquiry slot) → target check → inquiry slot → one transaction writing the lead, its outbox
 * notification and the completed key. Any failure after the claim releases it, so a retry is safe.
 */
export async function createInquiry(parsed: InquiryInput, sender: InquirySender, deps: InquiryDeps): Promise<InquiryResult> {
  const { kind } = parsed;
  const key = sender.idempotencyKey ?? null;
  const { min, max } = IDEMPOTENCY_KEY_LENGTH;
  if (key !== null && (key.length < min || key.length > max)) {
    throw new ApiError('invalid_parameters', { problems: [{ param: 'idempotencyKey', problem: `must be ${min} to ${max} characters` }] });
  }
  const bodyHash = sha256(canonicalJson(parsed.input));
  const outcome = await claimKey<InquiryResult>({ apiKeyId: sender.apiKey.id, scope: kind, key: key ?? `fp:${bodyHash}`, bodyHash }, deps);
  if (outcome.kind === 'replay') return outcome.response;
  const { claim } = outcome;
  let ticket: Ticket | undefined;
  try {
    const target = await resolveTarget(parsed, deps.prisma);
    ticket = await checkInquiry(sender.apiKey, kind, deps);
    return await writeLead(parsed, target, sender, claim, deps);
  } catch (error) {
    await releaseClaim(claim, deps).catch((e: unknown) => deps.log.error({ err: e }, 'inquiry: could not release an idempotency claim'));
    if (ticket) await refund(ticket, deps).catch(() => undefined);
    if (error instanceof ApiError) throw error;
    // The driver error's detail can quote the failing row ("Failing row contains (…)"): the lead's PII. Log its kind only.
    deps.log.error({ failure: failureKind(error) }, 'inquiry: insert failed');
    // The hint says "retry" unless the failure is one a retry repeats (bad data, a violated constraint).
    throw new ApiError('insert_failed', {
      cause: error,
      ...(isDeterministicDatabaseFailure(error) ? { hint: 'Retrying will not help; contact support with the request_id.' } : {}),
    });
  }
}

interface Target {
  venueId?: string;
  vendorId?: string;
  slug: string;
}

async function resolveTarget(parsed: InquiryInput, prisma: PrismaClient): Promise<Target> {
  if (parsed.kind === 'venue') {
    const slug = parsed.input.propertySlug;
    const venueId = await findListedVenueId(prisma, slug);
    if (!venueId) throw new ApiError('venue_not_found', { param: 'propertySlug', message: `No published venue has the slug "${slug}".` });
    return { venueId, slug };
  }
  const slug = parsed.input.vendorSlug;
  const vendor = await findVendorForLead(prisma, slug);
  if (!vendor?.active) throw new ApiError('vendor_not_found', { param: 'vendorSlug', message: `No listed vendor has the slug "${slug}".` });
  if (vendor.isAffiliateOnly) {
    throw new ApiError('affiliate_only_vendor', {
      param: 'vendorSlug',
      hint: vendor.affiliateLink
        ? `Send the couple to the vendor's affiliate_link instead: ${vendor.affiliateLink}`
        : "Use the vendor's affiliate_link instead.",
    });
  }
  return { vendorId: vendor.id, slug };
}

/** Thrown inside the transaction when the claim was retaken meanwhile (our lease lapsed): the lead is rolled back. */
class LeaseLost extends Error {}

/** Writes the lead, its outbox notification and the completed key in one transaction: all three commit or none. */
async function writeLead(parsed: InquiryInput, target: Target, sender: InquirySender, claim: Claim, deps: InquiryDeps): Promise<InquiryResult> {
  const now = deps.now();
  const input = parsed.input;
  const common = {
    guestName: input.guestName,
    guestEmail: input.guestEmail,
    guestPhone: input.guestPhone ?? null,
    message: input.message ?? null,
    eventGuests: input.eventGuests ?? null,
    smsConsent: input.smsConsent,
  };
  const specific =
    parsed.kind === 'venue'
      ? {
          startDate: parsed.input.startDate,
          endDate: parsed.input.endDate,
          overnightGuests: parsed.input.overnightGuests ?? null,
          estimatedPrice: parsed.input.estimatedPrice ?? null,
        }
      : {
          eventDate: parsed.input.eventDate ?? null,
          eventLocation: parsed.input.eventLocation ?? null,
          budgetRange: parsed.input.budgetRange ?? null,
          serviceNeeded: parsed.input.serviceNeeded ?? null,
        };
  const inquiryId = randomUUID();
  const result: InquiryResult = { inquiryId, status: 'submitted', message: nextStepsMessage(parsed.kind, input.smsConsent) };
  const row = {
    id: inquiryId,
    kind: parsed.kind,
    venueId: target.venueId ?? null,
    vendorId: target.vendorId ?? null,
    targetSlug: target.slug,
    ...common,
    ...specific,
    smsConsentAt: now,
    smsConsentSource: sender.surface,
    apiKeyId: sender.apiKey.id,
    surface: sender.surface,
    status: 'submitted',
    createdAt: now,
  };
  const notificationId = randomUUID();
  try {
    await deps.prisma.$transaction(async (tx) => {
      await insertLead(tx, row);
      await insertLeadNotification(tx, {
        id: notificationId,
        inquiryId,
        at: now,
        payload: {
          notification_id: notificationId,
          type: 'inquiry.submitted',
          inquiry: { ...row, createdAt: now.toISOString(), smsConsentAt: now.toISOString() },
        },
      });
      if (!(await completeClaim(tx, claim, inquiryId, { ...result }))) throw new LeaseLost();
    }, REQUEST_TRANSACTION);
  } catch (error) {
    if (error instanceof LeaseLost) throw inProgress();
    throw error;
  }
  return result;
}

/** What a failed insert was, without its message or detail (which can quote the lead's values). */
function failureKind(error: unknown): { name: string; code?: string } {
  const { name, code, cause } = (error ?? {}) as { name?: unknown; code?: unknown; cause?: { code?: unknown } };
  const sqlState = typeof code === 'string' ? code : typeof cause?.code === 'string' ? cause.code : undefined;
  return { name: typeof name === 'string' ? name : 'Error', ...(sqlState ? { code: sqlState } : {}) };
}
