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
  /**
   * Failed key attempts (unknown, malformed or revoked keys) per client IP in a rolling window. Past it the IP is
   * answered 429 before any key lookup: brute force and lookup cost stay bounded (not in §8; our own rule).
   */
  failedKeyAttempts: WindowRule;
  /**
   * The keyless assistant server (§5.2, /mcp and `npm run mcp`), per client IP and rolling 24 h, on top of the
   * keyless 400 a minute (§8.4): tool calls, and the venue detail lookups among them. A real conversation makes tens
   * of calls; these stop one address from copying the catalogue (its venue details would take a week).
   */
  assistant: { callsPerDay: number; venueDetailsPerDay: number };
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
  // A client with a typo or a revoked key learns it on the first 401; 30 more tries in 10 minutes are only retries.
  failedKeyAttempts: { windowMs: 10 * MINUTE_MS, limit: 30 },
  assistant: { callsPerDay: 2_000, venueDetailsPerDay: 200 },
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
  failedKeyAttempts: { windowMs: 10 * MINUTE_MS, limit: 1_000_000 },
  assistant: { callsPerDay: 100_000_000, venueDetailsPerDay: 100_000_000 },
};
