import { builder } from '../graphql/builder.js';
import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from '../http/context.js';
import type { InquiryKind } from '../limits/limits.policy.js';
import { createInquiry, type InquiryResult } from './inquiries.service.js';
import { closedSet } from '../graphql/closed-set.js';

builder.mutationType({ description: 'The only writes: inquiries, each creating a real lead (§4.10–4.12).' });

const Status = closedSet('InquiryStatus', ['submitted'], 'The state of a created inquiry (§2.10).');

const InquiryResultRef = builder.objectRef<InquiryResult>('InquiryResult').implement({
  description: 'A created (or idempotently replayed) inquiry (§2.10).',
  fields: (t) => ({
    inquiryId: t.exposeString('inquiryId', { description: 'UUID of the lead; the same on every replay of one request.' }),
    status: t.expose('status', { type: Status.ref, description: Status.describe() }),
    message: t.exposeString('message', { description: 'What happens next (§3).' }),
  }),
});

// Numbers are Float so that a fraction gets our "must be an integer" (invalid_parameters) on both surfaces rather
// than a GraphQL coercion error; smsConsent is JSON for the same reason (any non-boolean is sms_consent_required).
// Every field is optional in the GraphQL type so that the one zod schema (inquiries.inputs.ts) reports missing fields
// with the same codes on both surfaces (sms_consent_required before anything else, §4.10 rule 1).
const VenueInquiryInputRef = builder.inputType('VenueInquiryInput', {
  description: 'Venue inquiry (§2.11). Required: propertySlug, startDate, endDate, eventGuests, guestName, guestEmail, smsConsent.',
  fields: (t) => ({
    propertySlug: t.string({ description: 'Venue slug.' }),
    startDate: t.string({ description: 'Check-in, ISO 8601 date (YYYY-MM-DD).' }),
    endDate: t.string({ description: 'Check-out, ISO 8601 date, after startDate.' }),
    eventGuests: t.float({ description: 'Whole number, 1 to 10000.' }),
    overnightGuests: t.float({ description: 'Whole number, 0 to 10000.' }),
    guestName: t.string({ description: '1 to 500 characters.' }),
    guestEmail: t.string({ description: 'Email address, at most 500 characters.' }),
    guestPhone: t.string({ description: 'At most 100 characters.' }),
    message: t.string({ description: 'At most 5000 characters.' }),
    estimatedPrice: t.float({
      description: 'Whole number, 0 to 100000: the estimate the client displayed to the couple, stored as given (never recomputed).',
    }),
    smsConsent: t.field({
      type: 'JSON',
      extensions: { jsonSchema: { type: 'boolean' } },
      description:
        'Required boolean: true only if the end user agreed to be texted. Typed JSON so that any other value is answered with sms_consent_required, as on REST (§4.10 rule 1).',
    }),
  }),
});

const VendorInquiryInputRef = builder.inputType('VendorInquiryInput', {
  description: 'Vendor inquiry (§2.11). Required: vendorSlug, guestName, guestEmail, smsConsent.',
  fields: (t) => ({
    vendorSlug: t.string({ description: 'Vendor slug.' }),
    guestName: t.string({ description: '1 to 500 characters.' }),
    guestEmail: t.string({ description: 'Email address, at most 500 characters.' }),
    guestPhone: t.string({ description: 'At most 100 characters.' }),
    eventDate: t.string({ description: 'ISO 8601 date (YYYY-MM-DD).' }),
    eventLocation: t.string({ description: 'At most 500 characters.' }),
    eventGuests: t.float({ description: 'Whole number, 0 to 10000.' }),
    budgetRange: t.string({ description: 'At most 100 characters.' }),
    serviceNeeded: t.string({ description: 'At most 500 characters.' }),
    message: t.string({ description: 'At most 5000 characters.' }),
    smsConsent: t.field({
      type: 'JSON',
      extensions: { jsonSchema: { type: 'boolean' } },
      description:
        'Required boolean: true only if the end user agreed to be texted. Typed JSON so that any other value is answered with sms_consent_required, as on REST (§4.10 rule 1).',
    }),
  }),
});

const IDEMPOTENCY_KEY_DOC =
  'At most 255 characters; overrides the X-Idempotency-Key header. Without either, the body is fingerprinted per API key. Remembered 24 hours (§4.12).';

const sender = (ctx: RequestContext, key: string | null | undefined) => {
  // Leads need a key (§5): the keyless assistant surface has no inquiry tool, and this holds even if one ran the field.
  if (ctx.surface === 'mcp' || ctx.apiKey.keyless) throw new ApiError('missing_api_key', { message: 'Inquiries need an API key.' });
  return { apiKey: ctx.apiKey, surface: ctx.surface, idempotencyKey: key ?? ctx.idempotencyKey ?? null };
};

const create = (kind: InquiryKind) => (_root: unknown, args: { input: object; idempotencyKey?: string | null }, ctx: RequestContext) =>
  createInquiry(kind, { ...args.input }, sender(ctx, args.idempotencyKey), ctx);

builder.mutationFields((t) => ({
  createVenueInquiry: t.field({
    type: InquiryResultRef,
    description:
      'Sends a venue inquiry (§4.10): creates a lead and notifies the team; idempotent (§4.12). One lead-creating field per operation (aliases included), else the operation is refused before anything runs. A refused inquiry limit is a field error (code inquiry_rate_limit_exceeded, extensions.retryAfter) with HTTP 200.',
    args: { input: t.arg({ type: VenueInquiryInputRef, required: true }), idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DOC }) },
    resolve: create('venue'),
  }),
  createVendorInquiry: t.field({
    type: InquiryResultRef,
    description:
      'Sends a vendor inquiry (§4.11): creates a lead and notifies the team; idempotent (§4.12). One lead-creating field per operation (aliases included), else the operation is refused before anything runs. A refused inquiry limit is a field error (code inquiry_rate_limit_exceeded, extensions.retryAfter) with HTTP 200.',
    args: { input: t.arg({ type: VendorInquiryInputRef, required: true }), idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DOC }) },
    resolve: create('vendor'),
  }),
}));
