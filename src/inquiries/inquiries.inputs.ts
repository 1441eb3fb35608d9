import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import { ofLength, ordered, parseInput } from '../errors/validation.js';
import type { InquiryKind } from '../limits/limits.policy.js';

/**
 * §2.11 request bodies. Keys are the GraphQL input field names (camelCase); REST callers send the snake_case names
 * and the adapter renames them both ways. Strict: an unknown field — including server-owned ones such as id,
 * status or created_at — is refused with invalid_parameters, never silently dropped.
 */

/**
 * Years an event date may fall in: a wedding is planned at most a few years ahead, and a date before 2000 is a typo
 * or a probe (0000-01-01 is a valid ISO string but no event). Inclusive.
 */
export const EVENT_YEARS = { min: 2000, max: 2100 } as const;

/** The years from `min` to `max` as a regular expression, one alternative per decade (200[0-9]|…|2100). */
function yearsPattern(min: number, max: number): string {
  const decades: string[] = [];
  for (let decade = Math.floor(min / 10); decade <= Math.floor(max / 10); decade++) {
    const from = Math.max(min, decade * 10) % 10;
    const to = Math.min(max, decade * 10 + 9) % 10;
    decades.push(from === to ? `${decade}${from}` : `${decade}[${from}-${to}]`);
  }
  return decades.join('|');
}

/**
 * A real calendar date, YYYY-MM-DD (ISO 8601 calendar date) in EVENT_YEARS; 2026-02-30 is refused. Published as
 * format date (which refuses 2026-02-30 too) with the pattern of the years.
 */
const isoDate = z
  .string({ error: 'must be a string' })
  .meta({
    format: 'date',
    pattern: `^(?:${yearsPattern(EVENT_YEARS.min, EVENT_YEARS.max)})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$`,
  })
  .min(1, { error: 'must not be empty' })
  .refine(
    (value) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    },
    { error: 'must be a real ISO 8601 date (YYYY-MM-DD)' },
  )
  .refine(
    (value) => {
      const year = Number(value.slice(0, 4));
      return !/^\d{4}-/.test(value) || (year >= EVENT_YEARS.min && year <= EVENT_YEARS.max);
    },
    { error: `must be a date in the years ${EVENT_YEARS.min} to ${EVENT_YEARS.max}` },
  );
const text = (min: number, max: number) =>
  ofLength(z.string({ error: 'must be a string' }), {
    min,
    max,
    tooShort: min === 1 ? 'must not be empty' : `must be at least ${min} characters`,
    tooLong: `must be at most ${max} characters`,
  });
/**
 * A whole number of §2.11: a bound it passes is named ("must be at least 1", as rule 3's answers have always said it),
 * anything else states the whole range. The function covers every issue of the schema (a number past 2^53 included),
 * since zod gives a schema's `error` to each check without its own.
 */
const int = (min: number, max: number) => {
  const atLeast = `must be at least ${min}`;
  const atMost = `must be at most ${max}`;
  return z
    .int({
      error: (issue) => (issue.code === 'too_small' ? atLeast : issue.code === 'too_big' ? atMost : `must be an integer from ${min} to ${max}`),
    })
    .min(min, { error: atLeast })
    .max(max, { error: atMost });
};

/**
 * §2.11's bounds: the checks below and the GraphQL input types' descriptions (inquiries.graphql.ts) are made from
 * these, so what a field says it takes is what it takes. Characters, or whole numbers for guests and price.
 */
export const INQUIRY_BOUNDS = {
  slug: { min: 1, max: 500 },
  guestName: { min: 1, max: 500 },
  guestEmail: { max: 500 },
  guestPhone: { min: 0, max: 100 },
  message: { min: 0, max: 5000 },
  eventLocation: { min: 0, max: 500 },
  budgetRange: { min: 0, max: 100 },
  serviceNeeded: { min: 0, max: 500 },
  venueEventGuests: { min: 1, max: 10_000 },
  overnightGuests: { min: 0, max: 10_000 },
  vendorEventGuests: { min: 0, max: 10_000 },
  estimatedPrice: { min: 0, max: 100_000 },
} as const;

/** §4.12: an idempotency key (header or argument) is 1 to 255 characters; the service refuses any other. */
export const IDEMPOTENCY_KEY_LENGTH = { min: 1, max: 255 } as const;

const B = INQUIRY_BOUNDS;
const within = (bounds: { min: number; max: number }) => text(bounds.min, bounds.max);
const wholeNumber = (bounds: { min: number; max: number }) => int(bounds.min, bounds.max);
const email = z.email({ error: 'must be a valid email address' }).max(B.guestEmail.max, { error: `must be at most ${B.guestEmail.max} characters` });

/** The input types carry these schemas, so the OpenAPI document states their bounds (src/graphql/input-schema.ts). */
export const VenueInquiryInput = ordered(
  z.strictObject({
    propertySlug: within(B.slug),
    startDate: isoDate,
    endDate: isoDate,
    eventGuests: wholeNumber(B.venueEventGuests),
    overnightGuests: wholeNumber(B.overnightGuests).nullish(),
    guestName: within(B.guestName),
    guestEmail: email,
    guestPhone: within(B.guestPhone).nullish(),
    message: within(B.message).nullish(),
    /** The client's displayed estimate, whole units; stored as given (never recomputed). */
    estimatedPrice: wholeNumber(B.estimatedPrice).nullish(),
    smsConsent: z.boolean(),
  }),
  [{ lower: 'startDate', upper: 'endDate', strict: true, error: 'must be after start_date' }],
);

export const VendorInquiryInput = z.strictObject({
  vendorSlug: within(B.slug),
  guestName: within(B.guestName),
  guestEmail: email,
  guestPhone: within(B.guestPhone).nullish(),
  eventDate: isoDate.nullish(),
  eventLocation: within(B.eventLocation).nullish(),
  eventGuests: wholeNumber(B.vendorEventGuests).nullish(),
  budgetRange: within(B.budgetRange).nullish(),
  serviceNeeded: within(B.serviceNeeded).nullish(),
  message: within(B.message).nullish(),
  smsConsent: z.boolean(),
});

export type VenueInquiry = z.output<typeof VenueInquiryInput>;
export type VendorInquiry = z.output<typeof VendorInquiryInput>;
export type InquiryInput = { kind: 'venue'; input: VenueInquiry } | { kind: 'vendor'; input: VendorInquiry };

/**
 * Rule order of §4.10: a missing or non-boolean smsConsent is sms_consent_required before any other field is
 * looked at; then every failing field in one invalid_parameters error.
 */
export function parseInquiry(kind: InquiryKind, raw: unknown): InquiryInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ApiError('invalid_parameters', { problems: [{ param: 'input', problem: 'must be a JSON object' }] });
  }
  if (typeof (raw as Record<string, unknown>).smsConsent !== 'boolean') throw new ApiError('sms_consent_required', { param: 'smsConsent' });
  const unknown = Object.keys(raw).filter((key) => !(key in (kind === 'venue' ? VenueInquiryInput.shape : VendorInquiryInput.shape)));
  if (unknown.length) {
    throw new ApiError('invalid_parameters', {
      problems: unknown.map((param) => ({ param, problem: 'is not a field of this request (server-owned or unknown)' })),
    });
  }
  return kind === 'venue' ? { kind, input: parseInput(VenueInquiryInput, raw) } : { kind, input: parseInput(VendorInquiryInput, raw) };
}
