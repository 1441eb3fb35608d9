import { randomFillSync } from 'node:crypto';

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,64}$/;
/** Random bytes of one request id (16 base64url characters). */
const ID_BYTES = 12;
/**
 * Random bytes for 256 ids, drawn from the CSPRNG at once and refilled when used up, as crypto.randomUUID does: one
 * randomBytes(12) a request was a visible share of a small route's CPU (docs/performance.md, Levers).
 */
const pool = Buffer.alloc(ID_BYTES * 256);
let used = pool.length;

/** A client's X-Request-Id is kept when it is safe to log and echo; otherwise (or when absent) a new one is made. */
export function requestIdFor(header: string | null): string {
  if (header && CLIENT_ID.test(header)) return header;
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('base64url', used, used + ID_BYTES);
  used += ID_BYTES;
  return `req_${id}`;
}
