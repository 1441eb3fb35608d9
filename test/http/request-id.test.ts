import { describe, expect, it } from 'vitest';
import { requestIdFor } from '../../src/http/request-id.js';

describe('request ids', () => {
  it('are 16 base64url characters after req_, distinct across refills of their random pool', () => {
    // 256 ids per draw from the CSPRNG: 2,000 cross seven refills.
    const ids = Array.from({ length: 2000 }, () => requestIdFor(null));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Consecutive ids share no bytes: each takes its own 12 of the pool.
    const bytes = ids.slice(250, 262).map((id) => Buffer.from(id.slice(4), 'base64url'));
    for (let i = 1; i < bytes.length; i++) expect(bytes[i].equals(bytes[i - 1])).toBe(false);
  });

  it("keeps a client's id that is safe to echo, and replaces one that is not", () => {
    expect(requestIdFor('client-trace.0001')).toBe('client-trace.0001');
    expect(requestIdFor('short')).toMatch(/^req_/);
    expect(requestIdFor('bad id with spaces')).toMatch(/^req_/);
    expect(requestIdFor('x'.repeat(65))).toMatch(/^req_/);
  });
});
