import { randomBytes } from 'node:crypto';

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** A client's X-Request-Id is kept when it is safe to log and echo; otherwise (or when absent) a new one is made. */
export function requestIdFor(header: string | null): string {
  if (header && CLIENT_ID.test(header)) return header;
  return `req_${randomBytes(12).toString('base64url')}`;
}
