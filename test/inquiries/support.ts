import type { TestApp, TestResponse } from '../support/app.js';
import { camel } from '../support/app.js';

export type Kind = 'venue' | 'vendor';

/** The seeded targets every inquiry test writes to. */
export interface Targets {
  venue: string;
  unpublishedVenue: string;
  vendor: string;
  affiliateVendor: { slug: string; link: string | null };
}

export async function targets(t: TestApp): Promise<Targets> {
  const { prisma } = t.db;
  const venue = await prisma.venue.findFirstOrThrow({ where: { published: true }, orderBy: { slug: 'asc' } });
  const unpublished = await prisma.venue.findFirstOrThrow({ where: { published: false } });
  const vendor = await prisma.vendor.findFirstOrThrow({ where: { active: true, isAffiliateOnly: false }, orderBy: { slug: 'asc' } });
  const affiliate = await prisma.vendor.findFirstOrThrow({ where: { active: true, isAffiliateOnly: true } });
  return {
    venue: venue.slug,
    unpublishedVenue: unpublished.slug,
    vendor: vendor.slug,
    affiliateVendor: { slug: affiliate.slug, link: affiliate.affiliateLink },
  };
}

/** A valid §2.11 body (REST names). */
export function validBody(kind: Kind, tg: Targets, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return kind === 'venue'
    ? {
        property_slug: tg.venue,
        start_date: '2027-06-10',
        end_date: '2027-06-13',
        event_guests: 80,
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        sms_consent: false,
        ...extra,
      }
    : { vendor_slug: tg.vendor, guest_name: 'Ada Lovelace', guest_email: 'ada@example.com', sms_consent: true, ...extra };
}

export function postRest(t: TestApp, kind: Kind, body: unknown, options: { idem?: string; key?: string; raw?: string } = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.idem !== undefined) headers['x-idempotency-key'] = options.idem;
  return t.rest(`/api/v1/inquiries/${kind}`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body), key: options.key });
}

const MUTATION = {
  venue:
    'mutation($input: VenueInquiryInput!, $key: String) { createVenueInquiry(input: $input, idempotencyKey: $key) { inquiryId status message } }',
  vendor:
    'mutation($input: VendorInquiryInput!, $key: String) { createVendorInquiry(input: $input, idempotencyKey: $key) { inquiryId status message } }',
};

export const camelBody = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([k, v]) => [camel(k), v]));

/** The same inquiry through GraphQL (REST names converted); the key as an argument, or as the header with `header`. */
export function postGraphql(
  t: TestApp,
  kind: Kind,
  body: Record<string, unknown>,
  options: { idem?: string; header?: boolean; key?: string } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  if (options.idem !== undefined && options.header) headers['x-idempotency-key'] = options.idem;
  return t.graphql(MUTATION[kind], { input: camelBody(body), key: options.header ? null : (options.idem ?? null) }, { headers, key: options.key });
}

export const resultOf = (kind: Kind, res: TestResponse) => res.body?.data?.[kind === 'venue' ? 'createVenueInquiry' : 'createVendorInquiry'];
