import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from '../graphql/context.js';
import type { InquiryKind } from '../limits/limits.policy.js';
import { createInquiry, type InquiryResult } from './inquiries.service.js';
import { EVENT_YEARS, INQUIRY_BOUNDS, VendorInquiryInput, VenueInquiryInput, parseInquiry } from './inquiries.inputs.js';
import { parsedBy } from '../graphql/input-schema.js';
import { closedSet } from '../graphql/closed-set.js';

builder.mutationType({ description: 'The only writes: inquiries, each creating a real lead (§4.10–4.12).' });

const Status = closedSet('InquiryStatus', ['submitted'], 'The state of a created inquiry (§2.10).');

const InquiryResultRef = builder.objectRef<InquiryResult>('InquiryResult').implement({
  description: 'A created (or idempotently replayed) inquiry (§2.10).',
  fields: (t) => ({
    inquiryId: t.expose('inquiryId', { type: 'UUID', description: 'UUID of the lead; the same on every replay of one request.' }),
    status: t.expose('status', { type: Status.ref, description: Status.describe() }),
    message: t.exposeString('message', { description: 'What happens next (§3).' }),
  }),
});

// The input types say the truth (Int, Boolean!, required fields); an inquiry's raw input is checked in §4.10's order
// before GraphQL coerces it (lead-input.ts), so a wrong sms_consent is still sms_consent_required and every failing
// field is named at once, with the same codes on both surfaces.
const characters = (b: { min?: number; max: number }) => (b.min === 1 ? `1 to ${b.max} characters.` : `At most ${b.max} characters.`);
const wholeNumber = (b: { min: number; max: number }) => `Whole number, ${b.min} to ${b.max}.`;
const SMS_CONSENT_DOC =
  'True only if the end user agreed to be texted. Any value that is not a boolean is answered with sms_consent_required before any other field is looked at (§4.10 rule 1).';
const DATE_DOC = `ISO 8601 date (YYYY-MM-DD), in the years ${EVENT_YEARS.min} to ${EVENT_YEARS.max}.`;
const B = INQUIRY_BOUNDS;

const VenueInquiryInputRef = builder.inputType('VenueInquiryInput', {
  description: 'Venue inquiry (§2.11).',
  extensions: parsedBy(VenueInquiryInput),
  fields: (t) => ({
    propertySlug: t.string({ required: true, description: `Venue slug. ${characters(B.slug)}` }),
    startDate: t.string({ required: true, description: `Check-in. ${DATE_DOC}` }),
    endDate: t.string({ required: true, description: `Check-out, after startDate. ${DATE_DOC}` }),
    eventGuests: t.int({ required: true, description: wholeNumber(B.venueEventGuests) }),
    overnightGuests: t.int({ description: wholeNumber(B.overnightGuests) }),
    guestName: t.string({ required: true, description: characters(B.guestName) }),
    guestEmail: t.string({ required: true, description: `Email address. ${characters(B.guestEmail)}` }),
    guestPhone: t.string({ description: characters(B.guestPhone) }),
    message: t.string({ description: characters(B.message) }),
    estimatedPrice: t.int({
      description: `${wholeNumber(B.estimatedPrice)} The estimate the client displayed to the couple, stored as given (never recomputed).`,
    }),
    smsConsent: t.boolean({ required: true, description: SMS_CONSENT_DOC }),
  }),
});

const VendorInquiryInputRef = builder.inputType('VendorInquiryInput', {
  description: 'Vendor inquiry (§2.11).',
  extensions: parsedBy(VendorInquiryInput),
  fields: (t) => ({
    vendorSlug: t.string({ required: true, description: `Vendor slug. ${characters(B.slug)}` }),
    guestName: t.string({ required: true, description: characters(B.guestName) }),
    guestEmail: t.string({ required: true, description: `Email address. ${characters(B.guestEmail)}` }),
    guestPhone: t.string({ description: characters(B.guestPhone) }),
    eventDate: t.string({ description: DATE_DOC }),
    eventLocation: t.string({ description: characters(B.eventLocation) }),
    eventGuests: t.int({ description: wholeNumber(B.vendorEventGuests) }),
    budgetRange: t.string({ description: characters(B.budgetRange) }),
    serviceNeeded: t.string({ description: characters(B.serviceNeeded) }),
    message: t.string({ description: characters(B.message) }),
    smsConsent: t.boolean({ required: true, description: SMS_CONSENT_DOC }),
  }),
});

const IDEMPOTENCY_KEY_DOC =
  'At most 255 characters; overrides the X-Idempotency-Key header. Without either, the body is fingerprinted per API key. Remembered 24 hours (§4.12).';

const sender = (ctx: RequestContext, key: string | null | undefined) => {
  // Leads need a key (§5) and come over REST or GraphQL: the keyless assistant surface has no inquiry tool and the
  // pages run no operation, and this holds even if one ran the field.
  if ((ctx.surface !== 'rest' && ctx.surface !== 'graphql') || ctx.apiKey.keyless)
    throw new ApiError('missing_api_key', { message: 'Inquiries need an API key.' });
  return { apiKey: ctx.apiKey, surface: ctx.surface, idempotencyKey: key ?? ctx.idempotencyKey ?? null };
};

const create = (kind: InquiryKind) => (_root: unknown, args: { input: object; idempotencyKey?: string | null }, ctx: RequestContext) => {
  // Both surfaces check the raw input before GraphQL coerces it (lead-input.ts); parsed here only if something ran
  // the schema without that check.
  const input = ctx.checkedInquiry?.kind === kind ? ctx.checkedInquiry : parseInquiry(kind, { ...args.input });
  return createInquiry(input, sender(ctx, args.idempotencyKey), ctx);
};

builder.mutationFields((t) => ({
  createVenueInquiry: t.field({
    type: InquiryResultRef,
    description:
      'Sends a venue inquiry (§4.10): creates a lead and notifies the team; idempotent (§4.12). One lead-creating field per operation (aliases included), else the operation is refused before anything runs. A refused inquiry limit is a field error (code inquiry_rate_limit_exceeded, extensions.retryAfter) with HTTP 200.',
    args: {
      input: t.arg({ type: VenueInquiryInputRef, required: true, ...graphqlOnly('The inquiry; checked as a whole before anything runs.') }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DOC }),
    },
    resolve: create('venue'),
  }),
  createVendorInquiry: t.field({
    type: InquiryResultRef,
    description:
      'Sends a vendor inquiry (§4.11): creates a lead and notifies the team; idempotent (§4.12). One lead-creating field per operation (aliases included), else the operation is refused before anything runs. A refused inquiry limit is a field error (code inquiry_rate_limit_exceeded, extensions.retryAfter) with HTTP 200.',
    args: {
      input: t.arg({ type: VendorInquiryInputRef, required: true, ...graphqlOnly('The inquiry; checked as a whole before anything runs.') }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY_KEY_DOC }),
    },
    resolve: create('vendor'),
  }),
}));
