import type { ApiTier } from '../auth/api-keys.service.js';

/** One rolling window over a log: at most `limit` entries younger than `windowMs`. */
export interface WindowRule {
  /** Window length, milliseconds. */
  windowMs: number;
  /** Entries allowed inside the window. */
  limit: number;
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;

export const INQUIRY_KINDS = ['venue', 'vendor'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];

/** Every number of §8 in one place. All windows roll (§8.1): the last 60 s, the last 24 h. */
export interface LimitsPolicy {
  /** Read requests per key, both surfaces together: burst per minute and per day (§8 rows 1–2). */
  requests: Record<ApiTier, { perMinute: number; perDay: number }>;
  /** Venue detail lookups per key per day, every tier, counted apart from reads (§8 row 3, §8.2). */
  venueDetailPerDay: number;
  /** Inquiry submissions per key per day, for each kind, every tier (§8 row 4). */
  inquiryPerDay: number;
  /** Requests without a key per client IP per minute (§8.4). */
  keylessPerMinute: number;
}

/** The spec's numbers (§8); the real server always runs with these. */
export const SPEC_POLICY: LimitsPolicy = {
  requests: {
    free: { perMinute: 10, perDay: 100 },
    pro: { perMinute: 60, perDay: 10_000 },
    partner: { perMinute: 60, perDay: 10_000 },
  },
  venueDetailPerDay: 20,
  inquiryPerDay: 5,
  keylessPerMinute: 400,
};

/** The rules of a key's read-request log: the burst window first (its numbers feed X-RateLimit-*), then the day. */
export function requestRules(policy: LimitsPolicy, tier: ApiTier): WindowRule[] {
  const { perMinute, perDay } = policy.requests[tier];
  return [
    { windowMs: MINUTE_MS, limit: perMinute },
    { windowMs: DAY_MS, limit: perDay },
  ];
}

/**
 * Numbers no functional test or throughput benchmark reaches (they make thousands of requests with one key).
 * Never used by the server (main.ts runs SPEC_POLICY); test/limits/** runs SPEC_POLICY too.
 */
export const UNREACHABLE_POLICY: LimitsPolicy = {
  requests: {
    free: { perMinute: 1_000_000, perDay: 100_000_000 },
    pro: { perMinute: 1_000_000, perDay: 100_000_000 },
    partner: { perMinute: 1_000_000, perDay: 100_000_000 },
  },
  venueDetailPerDay: 100_000_000,
  inquiryPerDay: 100_000_000,
  keylessPerMinute: 1_000_000,
};
