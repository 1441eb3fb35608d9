// A REST route names its body's ETag as it renders it (src/rest/adapter.ts) instead of withCaching hashing the body
// after request_id is added: both must give the same tag, so a client's If-None-Match works across either path.
import { describe, expect, it } from 'vitest';
import { etagWithoutRequestId, withCaching, withRequestId } from '../../src/http/conventions.js';
import { Request, Response } from '../../src/http/fetch-api.js';

async function etagByWithCaching(text: string, requestId: string): Promise<string> {
  const response = new Response(withRequestId(text, requestId), { headers: { 'content-type': 'application/json; charset=utf-8' } });
  const cached = await withCaching(new Request('http://api.test/api/v1/venues'), response, requestId, true);
  return cached.headers.get('etag')!;
}

describe('the ETag named at render time', () => {
  it.each([
    ['an envelope', JSON.stringify({ data: [{ slug: 'a', name: 'Ä "quoted" \\u2028' }], pagination: { total_count: 1 } })],
    ['an empty object', '{}'],
  ])('equals the one withCaching computes over the sent body, for %s', async (_name, text) => {
    const sent = withRequestId(text, 'req_123');
    expect(JSON.parse(sent)).toEqual({ ...JSON.parse(text), request_id: 'req_123' });
    expect(Object.keys(JSON.parse(sent)).at(-1)).toBe('request_id');
    expect(etagWithoutRequestId(text)).toBe(await etagByWithCaching(text, 'req_123'));
    expect(await etagByWithCaching(text, 'req_456')).toBe(etagWithoutRequestId(text));
  });

  it('a rendered ETag is answered 304 on If-None-Match, and dropped from an answer that is not cacheable', async () => {
    const text = JSON.stringify({ data: { slug: 'a' } });
    const etag = etagWithoutRequestId(text);
    const rendered = () => new Response(withRequestId(text, 'r1'), { headers: { etag, 'content-type': 'application/json; charset=utf-8' } });
    const notModified = await withCaching(new Request('http://api.test/x', { headers: { 'if-none-match': etag } }), rendered(), 'r1', true);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    const refused = await withCaching(new Request('http://api.test/x'), rendered(), 'r1', false);
    expect(refused.headers.get('etag')).toBeNull();
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});
