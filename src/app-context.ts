import DataLoader from 'dataloader';
import type { RowReader } from './db/row-reader.js';
import { postBodies } from './blog/blog.service.js';
import { ApiError } from './errors/api-error.js';
import { createDayRates, type DayRate } from './catalogue/exchange-rates.js';
import { presentedKey, refusedKeyError } from './auth/authenticate.js';
import { verifyApiKey, type ApiKeyIdentity, type KeyRow } from './auth/api-keys.service.js';
import type { KeyLease } from './auth/key-lease.js';
import { checkAssistantCall, checkFailedKeyBudget, checkKeyless, checkRequest, countFailedKey, type Decision } from './limits/limits.service.js';
import type { AppDeps, RequestLoaders } from './graphql/context.js';
import type { Admission, ContextRequest, RequestContexts } from './http/context.js';

/** The one request-context factory of the app (house rule 6): every surface asks it, with its caller's kind. */
export function createRequestContexts(deps: AppDeps, keyLease: KeyLease<KeyRow> | undefined): RequestContexts {
  const dayRates = createDayRates(deps);
  const keyCheck = { readRows: deps.readRows, keyLease };

  async function admitKeyless(admission: Admission, ip: string): Promise<void> {
    admission.decision = await checkKeyless(ip, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
  }

  /**
   * §5.4 then §8: the key is verified before anything is counted (an invalid key's 401 has no rate limit headers);
   * no key at all is a keyless request (counted by IP) answered 401 missing_api_key.
   */
  async function admitKey({ headers, admission = {}, ip }: ContextRequest): Promise<ApiKeyIdentity> {
    const key = headers ? presentedKey(headers) : null;
    if (!key) {
      await admitKeyless(admission, ip);
      throw new ApiError('missing_api_key');
    }
    // An IP that keeps presenting wrong keys is refused before the lookup (brute force, lookup cost); the 401s
    // themselves still carry no rate limit headers (§5.4).
    await checkFailedKeyBudget(ip, deps);
    const apiKey = await verifyApiKey(key, keyCheck);
    if (!apiKey) {
      await countFailedKey(ip, deps);
      throw refusedKeyError(key);
    }
    admission.decision = await checkRequest(apiKey, deps);
    if (!admission.decision.allowed) throw rateLimited(admission.decision);
    return apiKey;
  }

  /** Who the caller is, admitted on the budget its kind counts against. */
  async function admit(request: ContextRequest): Promise<ApiKeyIdentity> {
    const { caller, ip } = request;
    if (caller === 'key') return admitKey(request);
    if (caller === 'keyless') await admitKeyless(request.admission ?? {}, ip);
    else await checkAssistantCall(ip, deps);
    return { id: `${caller}:${ip}`, prefix: caller, tier: 'free', keyless: true };
  }

  return {
    admitKeyless,
    async contextFor(request) {
      const apiKey = await admit(request);
      const { surface, scope } = request;
      const { log, requestId } = scope;
      const loaders = createLoaders(dayRates, deps.readRows);
      const idempotencyKey = request.caller === 'key' ? request.headers!.get('x-idempotency-key') : null;
      // Object.assign, not a spread with more fields after it: once warm, Node 20's V8 gives each such object a hidden
      // class of its own, and every resolver reads this one.
      if (request.caller === 'assistant') return Object.assign({}, deps, { log, requestId, surface, apiKey, loaders, idempotencyKey });
      return Object.assign({}, deps, { log, requestId, surface, apiKey, loaders, idempotencyKey, scope });
    },
  };
}

function rateLimited(decision: Decision): ApiError {
  return new ApiError('rate_limit_exceeded', {
    message: `Rate limit exceeded; retry after ${decision.retryAfter} s.`,
    headers: decision.headers,
  });
}

function createLoaders(dayRate: (pair: string) => Promise<DayRate | null>, readRows: RowReader): RequestLoaders {
  return {
    exchangeRate: new DataLoader((pairs) => Promise.all(pairs.map(dayRate))),
    postBody: new DataLoader((ids) => postBodies(ids, { readRows })),
  };
}
