import { randomBytes } from 'node:crypto';
import type { ApiKeyIdentity, ApiTier } from '../auth/api-keys.service.js';
import { ApiError } from '../errors/api-error.js';
import type { Logger } from '../logging/logger.js';
import { DAY_MS, MINUTE_MS, requestRules, type InquiryKind, type LimitsPolicy, type WindowRule } from './limits.policy.js';
import type { LogMode, LogResult, SlidingLogStore, WindowState } from './sliding-log.js';

/** The limiter of one app: its numbers and where its logs live. Built once by createApp (see createLimits). */
export interface Limits {
  policy: LimitsPolicy;
  /** Memory (one node) or Redis (every node shares it). */
  store: SlidingLogStore;
  /** Per-node logs used while a shared store fails, for limits that fail open. */
  fallback: SlidingLogStore;
  log: Logger;
  /** Unique per process, so entries appended by different nodes never collide in a shared log. */
  memberPrefix: string;
  /** Unix ms of the last "store unreachable" warning (one warning a minute, not one per request). */
  warnedAt: number;
  /** Told of every check (metrics): which limit, whether it passed, and which store answered. */
  onDecision?: (limit: string, allowed: boolean, store: 'shared' | 'fallback') => void;
}

export interface LimitsDeps {
  limits: Limits;
  now: () => Date;
}

export function createLimits(options: {
  policy: LimitsPolicy;
  store: SlidingLogStore;
  fallback: SlidingLogStore;
  log: Logger;
  onDecision?: Limits['onDecision'];
}): Limits {
  return { ...options, memberPrefix: randomBytes(6).toString('base64url'), warnedAt: -Infinity };
}

/**
 * What to do when the shared store cannot answer (Redis down or too slow):
 * `fallback` keeps serving under per-node in-memory logs (reads, venue details, keyless: availability first);
 * `refuse` answers 503 (inquiries: no lead may slip past its limit).
 */
type FailurePolicy = 'fallback' | 'refuse';

/** An entry a hit appended, so it can be taken back (see refund). */
export interface Ticket {
  key: string;
  rules: WindowRule[];
  member: string;
  store: SlidingLogStore;
}

/** The answer to one check: whether to proceed, and what to tell the client. */
export interface Decision {
  allowed: boolean;
  /** X-RateLimit-Limit, -Remaining, -Reset; plus Retry-After when refused. */
  headers: Record<string, string>;
  /** Seconds until a retry can pass (refused only); at least 1. */
  retryAfter?: number;
  ticket?: Ticket;
}

let counter = 0;

/** Metric names of the logs, by key prefix. */
const LIMIT_NAMES: Record<string, string> = {
  req: 'requests',
  ip: 'keyless',
  assistant: 'assistant_calls',
  badkey: 'failed_keys',
  vd: 'venue_details',
  inq: 'inquiries',
};

async function applyLog(
  deps: LimitsDeps,
  key: string,
  rules: WindowRule[],
  mode: LogMode,
  failure: FailurePolicy,
  member = `${deps.limits.memberPrefix}:${(counter++).toString(36)}`,
  weight = 1,
): Promise<{ result: LogResult; ticket: Ticket }> {
  const { limits } = deps;
  const nowMs = deps.now().getTime();
  const operation = { key, rules, nowMs, mode, member, weight };
  try {
    const result = await limits.store.apply(operation);
    limits.onDecision?.(LIMIT_NAMES[key.slice(0, key.indexOf(':'))] ?? 'other', result.allowed, 'shared');
    return { result, ticket: { key, rules, member, store: limits.store } };
  } catch (error) {
    if (failure === 'refuse') {
      limits.log.error(
        { err: error, limit: LIMIT_NAMES[key.slice(0, key.indexOf(':'))] ?? 'other' },
        'limiter store unreachable: refusing a limit that fails closed',
      );
      throw new ApiError('service_unavailable', { headers: { 'Retry-After': '5' }, cause: error });
    }
    if (nowMs - limits.warnedAt >= MINUTE_MS) {
      limits.warnedAt = nowMs;
      limits.log.warn({ err: error }, 'limiter store unreachable: counting on this node only until it is back');
    }
    const result = await limits.fallback.apply(operation);
    limits.onDecision?.(LIMIT_NAMES[key.slice(0, key.indexOf(':'))] ?? 'other', result.allowed, 'fallback');
    return { result, ticket: { key, rules, member, store: limits.fallback } };
  }
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** Seconds until every full window has a free slot again; never 0 while still blocked. */
function retryAfterOf(windows: WindowState[], nowMs: number): number {
  const freeAt = Math.max(...windows.map((w) => w.freeAtMs ?? nowMs));
  return Math.max(1, seconds(freeAt - nowMs));
}

/**
 * §8.3 headers, all about the rolling minute (the first rule): Limit is its allowance, Remaining what is left in
 * it, Reset when its oldest counted entry expires (the next slot frees). A refusal by a daily window is told by
 * the 429's code and Retry-After, which covers every window that refused.
 */
function rateLimitHeaders(rules: WindowRule[], result: LogResult, nowMs: number): Record<string, string> {
  const minute = result.windows[0];
  const remaining = Math.max(0, rules[0].limit - minute.count);
  const resetMs = minute.oldestMs === null ? nowMs : (minute.freeAtMs ?? minute.oldestMs + rules[0].windowMs);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(rules[0].limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(seconds(resetMs)),
  };
  if (!result.allowed) headers['Retry-After'] = String(retryAfterOf(result.windows, nowMs));
  // The same windows in the IETF fields (draft-ietf-httpapi-ratelimit-headers): every policy, and for each what is
  // left (r) and the seconds until its oldest counted entry frees a slot (t, a delta: no clock skew).
  const name = (rule: WindowRule) => (rule.windowMs === MINUTE_MS ? 'minute' : rule.windowMs === DAY_MS ? 'day' : `${rule.windowMs / 1000}s`);
  headers['RateLimit-Policy'] = rules.map((rule) => `"${name(rule)}";q=${rule.limit};w=${rule.windowMs / 1000}`).join(', ');
  headers.RateLimit = rules
    .map((rule, i) => {
      const window = result.windows[i];
      const left = Math.max(0, rule.limit - window.count);
      const t = window.oldestMs === null ? 0 : Math.max(0, seconds(window.oldestMs + rule.windowMs - nowMs));
      return `"${name(rule)}";r=${left};t=${t}`;
    })
    .join(', ');
  return headers;
}

function decide(rules: WindowRule[], result: LogResult, ticket: Ticket, nowMs: number): Decision {
  const headers = rateLimitHeaders(rules, result, nowMs);
  return result.allowed ? { allowed: true, headers, ticket } : { allowed: false, headers, retryAfter: Number(headers['Retry-After']) };
}

/** One API request of a verified key, either surface (§8 reads and burst). Counted before the request runs. */
export async function checkRequest(identity: ApiKeyIdentity, deps: LimitsDeps): Promise<Decision> {
  const rules = requestRules(deps.limits.policy, identity.tier);
  const { result, ticket } = await applyLog(deps, `req:${identity.id}`, rules, 'hit', 'fallback');
  return decide(rules, result, ticket, deps.now().getTime());
}

/** One request without a key, by client IP (§8.4): the description document, GraphiQL, a 401 for a missing key. */
export async function checkKeyless(ip: string, deps: LimitsDeps): Promise<Decision> {
  const rules = [{ windowMs: MINUTE_MS, limit: deps.limits.policy.keylessPerMinute }];
  const { result, ticket } = await applyLog(deps, `ip:${ip}`, rules, 'hit', 'fallback');
  return decide(rules, result, ticket, deps.now().getTime());
}

/**
 * One assistant tool call of a client IP (§5.2 keyless server): the keyless 400 a minute shared with every other
 * keyless request of the IP (§8.4), then the assistant's daily call budget. Refused → 429 rate_limit_exceeded with
 * the seconds to wait (the tool error carries them).
 */
export async function checkAssistantCall(ip: string, deps: LimitsDeps): Promise<void> {
  const minute = await checkKeyless(ip, deps);
  if (!minute.allowed) {
    throw new ApiError('rate_limit_exceeded', {
      message: `Keyless rate limit exceeded (${deps.limits.policy.keylessPerMinute} a minute); retry after ${minute.retryAfter} s.`,
      headers: { 'Retry-After': String(minute.retryAfter) },
    });
  }
  const rules = [{ windowMs: DAY_MS, limit: deps.limits.policy.assistant.callsPerDay }];
  const { result } = await applyLog(deps, `assistant:${ip}`, rules, 'hit', 'fallback');
  if (!result.allowed) {
    const retryAfter = retryAfterOf(result.windows, deps.now().getTime());
    throw new ApiError('rate_limit_exceeded', {
      message: `Daily assistant tool calls used up (${rules[0].limit} in 24 hours from this address); retry after ${retryAfter} s.`,
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/**
 * Before a presented key is looked up: refused (429 rate_limit_exceeded with Retry-After, no lookup) when this IP's
 * failed key attempts fill LimitsPolicy.failedKeyAttempts. Only looks; countFailedKey counts. Attempts in flight at
 * the same moment are each let through once, so a burst can pass the budget by at most its own width, once.
 */
export async function checkFailedKeyBudget(ip: string, deps: LimitsDeps): Promise<void> {
  const rules = [deps.limits.policy.failedKeyAttempts];
  const { result } = await applyLog(deps, `badkey:${ip}`, rules, 'peek', 'fallback');
  if (!result.allowed) {
    const retryAfter = retryAfterOf(result.windows, deps.now().getTime());
    throw new ApiError('rate_limit_exceeded', {
      message: `Too many requests with an invalid API key from this address; retry after ${retryAfter} s.`,
      hint: 'Check the key you send (Authorization: Bearer <key>); a revoked key stays invalid.',
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

/** One failed key attempt (unknown, malformed or revoked key) of this IP, after its 401 was decided. */
export async function countFailedKey(ip: string, deps: LimitsDeps): Promise<void> {
  await applyLog(deps, `badkey:${ip}`, [deps.limits.policy.failedKeyAttempts], 'hit', 'fallback');
}

/**
 * Takes back an admitted request's entry when its answer turned out to be a 429 (a venue-detail limit inside it),
 * so a refused request never uses up allowance. Returns the headers as they stand afterwards.
 */
export async function refund(ticket: Ticket, deps: LimitsDeps): Promise<Record<string, string>> {
  const nowMs = deps.now().getTime();
  const result = await ticket.store.apply({ key: ticket.key, rules: ticket.rules, nowMs, mode: 'refund', member: ticket.member });
  return rateLimitHeaders(ticket.rules, { ...result, allowed: true }, nowMs);
}

/**
 * Venue detail lookups (§8 row 3): 20 a day for every tier, apart from the read count (§8.2). Each resolved
 * `venue(slug)` field is one lookup, and so is each other venue whose detail-only fields (§2.3) an answer carries
 * (`count` of them, all or none). Throws 429 venue_detail_rate_limit_exceeded when they do not all fit.
 */
export async function checkVenueDetail(identity: ApiKeyIdentity, deps: LimitsDeps, count = 1): Promise<void> {
  const { policy } = deps.limits;
  const rules = [{ windowMs: DAY_MS, limit: identity.keyless ? policy.assistant.venueDetailsPerDay : policy.venueDetailPerDay }];
  const { result } = await applyLog(deps, `vd:${identity.id}`, rules, 'hit', 'fallback', undefined, count);
  if (result.allowed) return;
  const nowMs = deps.now().getTime();
  if (count > rules[0].limit) {
    throw new ApiError('venue_detail_rate_limit_exceeded', {
      message: `This request reads the details of ${count} venues; a key may look up ${rules[0].limit} in 24 hours.`,
      hint: 'Ask for detail fields (description, photos, testimonials, …) of fewer venues per request, or use venue(slug).',
      headers: { 'Retry-After': String(seconds(rules[0].windowMs)) },
    });
  }
  const used = result.windows[0].count;
  throw new ApiError('venue_detail_rate_limit_exceeded', {
    message:
      count === 1
        ? `Daily venue detail lookups used up (${rules[0].limit} in 24 hours).`
        : `This request reads the details of ${count} venues; ${Math.max(0, rules[0].limit - used)} of the ${rules[0].limit} daily venue detail lookups are left.`,
    headers: { 'Retry-After': String(retryAfterOf(result.windows, nowMs)) },
  });
}

/**
 * One new inquiry of a kind (§8 row 4): 5 a day per kind for every tier. Call it only for a new lead: an idempotent
 * replay (§4.12) takes no slot, it only counts as a request. Fails closed: with the store unreachable it throws
 * 503 service_unavailable rather than let a lead past its limit. Keep the ticket to refund the slot if the insert fails.
 */
export async function checkInquiry(identity: ApiKeyIdentity, kind: InquiryKind, deps: LimitsDeps): Promise<Ticket> {
  const rules = [{ windowMs: DAY_MS, limit: deps.limits.policy.inquiryPerDay }];
  const { result, ticket } = await applyLog(deps, `inq:${kind}:${identity.id}`, rules, 'hit', 'refuse');
  if (!result.allowed) {
    throw new ApiError('inquiry_rate_limit_exceeded', {
      message: `Daily ${kind} inquiry limit used up (${rules[0].limit} in 24 hours).`,
      headers: { 'Retry-After': String(retryAfterOf(result.windows, deps.now().getTime())) },
    });
  }
  return ticket;
}

/** One limit as the `rateLimit` field reports it. */
export interface AllowanceStatus {
  limit: number;
  /** Window length, seconds. */
  windowSeconds: number;
  used: number;
  remaining: number;
  /** Unix seconds when the oldest counted entry expires and frees a slot; null when nothing is counted. */
  resetAt: number | null;
}

export interface RateLimitStatus {
  tier: ApiTier;
  perMinute: AllowanceStatus;
  perDay: AllowanceStatus;
  venueDetailsPerDay: AllowanceStatus;
  venueInquiriesPerDay: AllowanceStatus;
  vendorInquiriesPerDay: AllowanceStatus;
}

function allowance(rule: WindowRule, state: WindowState): AllowanceStatus {
  return {
    limit: rule.limit,
    windowSeconds: rule.windowMs / 1000,
    used: state.count,
    remaining: Math.max(0, rule.limit - state.count),
    resetAt: state.oldestMs === null ? null : seconds(state.oldestMs + rule.windowMs),
  };
}

/** Every allowance of a key as it stands now (after the current request was counted); changes nothing. */
export async function rateLimitStatus(identity: ApiKeyIdentity, deps: LimitsDeps): Promise<RateLimitStatus> {
  const { policy } = deps.limits;
  const reads = requestRules(policy, identity.tier);
  const day = (limit: number) => [{ windowMs: DAY_MS, limit }];
  const peek = async (key: string, rules: WindowRule[]) => (await applyLog(deps, key, rules, 'peek', 'fallback')).result.windows;
  const [requests, details, venueInquiries, vendorInquiries] = await Promise.all([
    peek(`req:${identity.id}`, reads),
    peek(`vd:${identity.id}`, day(policy.venueDetailPerDay)),
    peek(`inq:venue:${identity.id}`, day(policy.inquiryPerDay)),
    peek(`inq:vendor:${identity.id}`, day(policy.inquiryPerDay)),
  ]);
  return {
    tier: identity.tier,
    perMinute: allowance(reads[0], requests[0]),
    perDay: allowance(reads[1], requests[1]),
    venueDetailsPerDay: allowance(day(policy.venueDetailPerDay)[0], details[0]),
    venueInquiriesPerDay: allowance(day(policy.inquiryPerDay)[0], venueInquiries[0]),
    vendorInquiriesPerDay: allowance(day(policy.inquiryPerDay)[0], vendorInquiries[0]),
  };
}

/**
 * `count` keyless requests of one IP that arrive together (the messages of one MCP batch, §8.4): all counted, or none
 * when fewer are left, refused 429 rate_limit_exceeded with Retry-After set to when the whole count fits (not merely
 * the next one). Returns the §8.3 headers as they stand after counting. `count` is at least 1.
 */
export async function checkKeylessBatch(ip: string, count: number, deps: LimitsDeps): Promise<Record<string, string>> {
  const rules = [{ windowMs: MINUTE_MS, limit: deps.limits.policy.keylessPerMinute }];
  const { result } = await applyLog(deps, `ip:${ip}`, rules, 'hit', 'fallback', undefined, count);
  const nowMs = deps.now().getTime();
  if (result.allowed) return rateLimitHeaders(rules, result, nowMs);
  const limit = rules[0].limit;
  if (count > limit) {
    // No wait makes room for more than a whole minute's allowance: no Retry-After.
    throw new ApiError('rate_limit_exceeded', {
      message: `This request counts ${count} keyless requests, more than the ${limit} a minute an address may make; send fewer messages at once.`,
      headers: rateLimitHeaders(rules, { ...result, allowed: true }, nowMs),
    });
  }
  const headers = rateLimitHeaders(rules, result, nowMs);
  const left = Math.max(0, limit - result.windows[0].count);
  throw new ApiError('rate_limit_exceeded', {
    message: `Keyless rate limit exceeded (${limit} a minute): this request counts ${count} and ${left} are left; retry after ${headers['Retry-After']} s.`,
    headers,
  });
}

/**
 * Counts `count` keyless requests of one IP after they were answered (MCP tool calls refused before their run counted
 * them), as many as fit: nothing is left to refuse. Returns the §8.3 headers as they stand; a count of 0 only reads them.
 */
export async function countKeyless(ip: string, count: number, deps: LimitsDeps): Promise<Record<string, string>> {
  const rules = [{ windowMs: MINUTE_MS, limit: deps.limits.policy.keylessPerMinute }];
  const mode: LogMode = count > 0 ? 'hit' : 'peek';
  const applied = await Promise.all(Array.from({ length: Math.max(count, 1) }, () => applyLog(deps, `ip:${ip}`, rules, mode, 'fallback')));
  const last = applied.reduce((a, b) => (b.result.windows[0].count > a.result.windows[0].count ? b : a));
  return rateLimitHeaders(rules, { ...last.result, allowed: true }, deps.now().getTime());
}
