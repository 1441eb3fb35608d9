import { ApiError } from '../errors/api-error.js';
import type { HeaderReader } from '../http/context.js';

/**
 * The key a request presents (§5.1): `Authorization: Bearer <key>` or `X-Service-Key: <key>`.
 * Both headers with different keys is ambiguous and refused as invalid rather than guessing which one was meant.
 */
export function presentedKey(headers: HeaderReader): string | null {
  const authorization = headers.get('authorization');
  // "Bearer" with nothing after it is no key at all (missing_api_key), not a wrong one.
  const bearer = authorization ? (/^Bearer\b/i.test(authorization) ? authorization.slice(6).trim() : authorization.trim()) : null;
  const serviceKey = headers.get('x-service-key')?.trim() || null;
  if (bearer && serviceKey && bearer !== serviceKey) {
    throw new ApiError('invalid_api_key', { message: 'Authorization and X-Service-Key carry different keys; send one key.' });
  }
  return bearer || serviceKey;
}
