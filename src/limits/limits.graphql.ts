import type { GraphQLResolveInfo } from 'graphql';
import { getGraphQLRateLimiter, Store, type Identity } from 'graphql-rate-limit';
import { builder } from '../graphql/builder.js';
import type { RequestContext } from '../graphql/context.js';
import { checkVenueDetail, rateLimitStatus, type AllowanceStatus } from './limits.service.js';
import { closedSet } from '../graphql/closed-set.js';
import { API_TIERS } from '../auth/api-keys.service.js';

/**
 * graphql-rate-limit's Store, connected to the atomic limiter. The library reads a field's timestamps, decides,
 * then writes them back: two steps, so nodes racing each other could both pass (teamplanes/graphql-rate-limit#188).
 * Here the read *is* the atomic check-and-count (checkVenueDetail: one Lua script on Redis), and its answer is handed
 * back in the shape the library decides on: no timestamps when admitted, `max` timestamps that never expire when
 * refused. The write is a no-op (the limiter already counted). The library still supplies the field identity and
 * its per-request batch cache, and it runs on the limiter's clock, not Date.now().
 */
class AtomicLimiterStore extends Store {
  /** The refusal the last read produced, re-thrown by the wrapper with its Retry-After. */
  refusal: unknown = null;

  constructor(private readonly ctx: RequestContext) {
    super();
  }

  async getForIdentity(_identity: Identity): Promise<readonly number[]> {
    try {
      await checkVenueDetail(this.ctx.apiKey, this.ctx);
      return [];
    } catch (error) {
      this.refusal = error;
      return new Array<number>(this.ctx.limits.policy.venueDetailPerDay).fill(Number.MAX_SAFE_INTEGER);
    }
  }

  setForIdentity(): void {}
}

type FieldRateLimiter = ReturnType<typeof getGraphQLRateLimiter>;

/** One library limiter per request: its store needs the request's key and clock, its batch cache the request. */
const limiters = new WeakMap<RequestContext, { limiter: FieldRateLimiter; store: AtomicLimiterStore }>();

function limiterOf(ctx: RequestContext) {
  let entry = limiters.get(ctx);
  if (!entry) {
    const store = new AtomicLimiterStore(ctx);
    const limiter = getGraphQLRateLimiter({ identifyContext: (c: RequestContext) => c.apiKey.id, store, enableBatchRequestCache: true });
    entry = { limiter, store };
    limiters.set(ctx, entry);
  }
  return entry;
}

/**
 * Wraps the `venue(slug)` resolver: every resolved field is one venue detail lookup (§8 row 3), aliases included,
 * counted before the venue is read. Refused → 429 venue_detail_rate_limit_exceeded with Retry-After (REST too: its
 * route runs this field).
 */
export async function withVenueDetailLimit<R>(
  field: { parent: unknown; args: Record<string, unknown>; ctx: RequestContext; info: GraphQLResolveInfo },
  resolve: () => Promise<R>,
): Promise<R> {
  const { limiter, store } = limiterOf(field.ctx);
  const refused = await limiter(
    { parent: field.parent, args: field.args, context: field.ctx, info: field.info },
    { max: field.ctx.limits.policy.venueDetailPerDay, window: '1d', readOnly: true },
  );
  if (refused) throw store.refusal;
  // A cached copy of this answer must count this lookup again (src/cache/response-cache.ts).
  if (field.ctx.answerNotes) field.ctx.answerNotes.venueLookups++;
  return resolve();
}

const Allowance = builder.objectRef<AllowanceStatus>('RateLimitAllowance').implement({
  description: 'One rolling-window allowance (§8.1: windows roll, nothing resets at midnight or on the minute).',
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Uses allowed in the window.' }),
    windowSeconds: t.exposeInt('windowSeconds', { description: 'Window length: 60 or 86400.' }),
    used: t.exposeInt('used', { description: 'Counted inside the window, this request included.' }),
    remaining: t.exposeInt('remaining', { description: 'Uses left in the window.' }),
    resetAt: t.exposeInt('resetAt', {
      nullable: true,
      description: 'Unix seconds when the oldest counted use expires and frees a slot; null when none is counted.',
    }),
  }),
});

const Tier = closedSet('ApiTier', API_TIERS, 'The tier of an API key (§8).');

const RateLimitStatusRef = builder.objectRef<Awaited<ReturnType<typeof rateLimitStatus>>>('RateLimitStatus').implement({
  description: "The key's tier and allowances (§8), as they stand after this request was counted.",
  fields: (t) => ({
    tier: t.expose('tier', { type: Tier.ref, description: Tier.describe() }),
    perMinute: t.expose('perMinute', { type: Allowance, description: 'Burst: requests in the last 60 s (X-RateLimit-*).' }),
    perDay: t.expose('perDay', { type: Allowance, description: 'Read requests in the last 24 h, both surfaces.' }),
    venueDetailsPerDay: t.expose('venueDetailsPerDay', { type: Allowance, description: 'venue(slug) lookups in the last 24 h.' }),
    venueInquiriesPerDay: t.expose('venueInquiriesPerDay', { type: Allowance, description: 'Venue inquiries in the last 24 h.' }),
    vendorInquiriesPerDay: t.expose('vendorInquiriesPerDay', { type: Allowance, description: 'Vendor inquiries in the last 24 h.' }),
  }),
});

builder.queryFields((t) => ({
  rateLimit: t.field({
    type: RateLimitStatusRef,
    description: "The calling key's tier, limits, remaining allowances and reset times.",
    resolve: (_root, _args, ctx) => rateLimitStatus(ctx.apiKey, ctx),
  }),
}));
