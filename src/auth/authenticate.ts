import { ApiError } from '../errors/api-error.js';
import type { HeaderReader } from '../graphql/context.js';
import { lookupPrefixOf } from './api-keys.service.js';

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

/** What documentation and templates write where a key goes, as people paste it unchanged. */
const PLACEHOLDERS = [
  /^(?:your[_-]?)?(?:api[_-]?)?key$/i, // YOUR_API_KEY, API_KEY, key
  /^your[_-]\w[\w-]*$/i, // YOUR_KEY_HERE, your-token
  /^<[^<>]*>$/, // <API_KEY>, <key>
  /^\$\{?\w+\}?$/, // $KEY, ${API_KEY}: a shell variable that was never set or was quoted
  /^wv_live_(?:…|\.{3}|x*)$/i, // wv_live_… as the landing page shows a key
];

/** A presented key that is a documentation placeholder; a well-formed key never is one, whatever its characters. */
export function isPlaceholderKey(key: string): boolean {
  return lookupPrefixOf(key) === null && PLACEHOLDERS.some((placeholder) => placeholder.test(key));
}

/**
 * The 401 for a presented key that did not verify. The code is invalid_api_key either way (§5.4: a credential header
 * was sent); a placeholder is told so in the message, since the check reads only the text the client sent and reveals
 * nothing about real keys, which stay answered alike.
 */
export function refusedKeyError(key: string): ApiError {
  if (!isPlaceholderKey(key)) return new ApiError('invalid_api_key');
  return new ApiError('invalid_api_key', {
    message: 'The API key is missing: the value sent is a placeholder (such as YOUR_API_KEY), not a key.',
    hint: 'Replace the placeholder with your own key: Authorization: Bearer <API_KEY> or X-Service-Key: <API_KEY>.',
  });
}
