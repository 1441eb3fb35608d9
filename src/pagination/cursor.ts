import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';

/**
 * Opaque, tamper-evident pagination cursors (§4.1 invalid_cursor). A cursor carries the keyset position and a hash
 * of the filters it was issued for, signed with HMAC-SHA256, so an edited, forged or re-targeted cursor is refused.
 */
export interface CursorCodec {
  encode(position: unknown[], scope: string): string;
  /** The keyset position, or an invalid_cursor error naming `param`. */
  decode(cursor: string, scope: string, param: string): unknown[];
}

const SIGNATURE_BYTES = 16;

export function createCursorCodec(secret: string): CursorCodec {
  // A KeyObject made once: createHmac with a string secret prepares the key again for every cursor.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
  return {
    encode(position, scope) {
      const payload = Buffer.from(JSON.stringify({ p: position, s: scope })).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    decode(cursor, scope, param) {
      const invalid = () => new ApiError('invalid_cursor', { param });
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) throw invalid();
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let decoded: { p?: unknown; s?: unknown };
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      // A valid cursor from a different search would silently skip or repeat rows: refuse it.
      if (decoded.s !== scope || !Array.isArray(decoded.p)) {
        throw new ApiError('invalid_cursor', { param, message: 'The cursor was issued for a different search.' });
      }
      return decoded.p;
    },
  };
}

/** A stable fingerprint of a search's filters (key order independent), used as a cursor's scope. */
export function filterScope(route: string, filters: Record<string, unknown>): string {
  const entries = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => a.localeCompare(b));
  return createHmac('sha256', route).update(JSON.stringify(entries)).digest('base64url').slice(0, 16);
}
