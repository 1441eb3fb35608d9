import type { RestRoute } from '../rest/route.js';
import { IDEMPOTENCY_KEY_LENGTH, parseInquiry } from './inquiries.inputs.js';

const RESULT = 'inquiryId status message';

const IDEMPOTENCY_HEADER = {
  name: 'X-Idempotency-Key',
  minLength: IDEMPOTENCY_KEY_LENGTH.min,
  maxLength: IDEMPOTENCY_KEY_LENGTH.max,
  description: 'Optional, at most 255 characters (a UUID is recommended). Scoped to the API key and the inquiry kind; remembered 24 hours (§4.12).',
};

const IDEMPOTENCY =
  'Optional header X-Idempotency-Key (at most 255 characters): the same key and body returns the original 201 (same inquiry_id, ' +
  'no second lead, no extra inquiry slot); the same key with another body is 409 idempotency_conflict; while the first request ' +
  'still runs, 409 idempotency_in_progress (retry after a few seconds). Without a key the body is fingerprinted per API key, so an ' +
  'identical retry is deduplicated too. Keys are remembered 24 hours. Unknown fields (including id, status, created_at) are refused.';

export const inquiryRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/inquiries/venue',
    operationId: 'createVenueInquiry',
    summary: 'Send a venue inquiry',
    description:
      'Creates a real lead and notifies the team; a concierge answers within 24 hours (by text only when sms_consent is true). ' +
      'estimated_price is stored as the estimate the client displayed to the couple, never recomputed. ' +
      IDEMPOTENCY,
    tag: 'Inquiries',
    document: `mutation createVenueInquiry($input: VenueInquiryInput!) { createVenueInquiry(input: $input) { ${RESULT} } }`,
    envelope: { kind: 'object' },
    body: {
      variable: 'input',
      check: (input) => ({ checkedInquiry: parseInquiry('venue', input) }),
    },
    headers: [IDEMPOTENCY_HEADER],
    errors: [
      'sms_consent_required',
      'invalid_json',
      'invalid_parameters',
      'payload_too_large',
      'venue_not_found',
      'idempotency_conflict',
      'idempotency_in_progress',
      'inquiry_rate_limit_exceeded',
      'insert_failed',
      'service_unavailable',
    ],
  },
  {
    method: 'POST',
    path: '/inquiries/vendor',
    operationId: 'createVendorInquiry',
    summary: 'Send a vendor inquiry',
    description:
      'Creates a real lead and notifies the team; the inquiry is screened and forwarded to the vendor, who is expected to reply ' +
      'within 3 business days. An affiliate-only vendor takes no inquiries (use its affiliate_link). ' +
      IDEMPOTENCY,
    tag: 'Inquiries',
    document: `mutation createVendorInquiry($input: VendorInquiryInput!) { createVendorInquiry(input: $input) { ${RESULT} } }`,
    envelope: { kind: 'object' },
    body: {
      variable: 'input',
      check: (input) => ({ checkedInquiry: parseInquiry('vendor', input) }),
    },
    headers: [IDEMPOTENCY_HEADER],
    errors: [
      'sms_consent_required',
      'invalid_json',
      'invalid_parameters',
      'payload_too_large',
      'vendor_not_found',
      'affiliate_only_vendor',
      'idempotency_conflict',
      'idempotency_in_progress',
      'inquiry_rate_limit_exceeded',
      'insert_failed',
      'service_unavailable',
    ],
  },
];
