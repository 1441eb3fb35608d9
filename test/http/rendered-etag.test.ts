// A REST route names its body's ETag as it renders it (src/rest/adapter.ts) instead of applyCaching hashing the body
// after request_id is added: both must give the same tag, so a client's If-None-Match works across either path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Answer } from '../../src/http/answer.js';
import { applyCaching, etagOfObjectBytes, etagWithoutRequestId, withRequestId, withRequestIdBytes } from '../../src/http/conventions.js';
import { utf8Bytes } from '../../src/http/utf8.js';

const JSON_TYPE: [string, string] = ['content-type', 'application/json; charset=utf-8'];

async function etagByApplyCaching(text: string, requestId: string): Promise<string> {
  const answer = new Answer(200, [JSON_TYPE], Buffer.from(withRequestId(text, requestId)));
  applyCaching(answer, null, requestId, true);
  return answer.headers.get('etag')!;
}

describe('the ETag named at render time', () => {
  it.each([
    ['an envelope', JSON.stringify({ data: [{ slug: 'a', name: 'Ä "quoted" \\u2028' }], pagination: { total_count: 1 } })],
    ['an empty object', '{}'],
  ])('equals the one applyCaching computes over the sent body, for %s', async (_name, text) => {
    const sent = withRequestId(text, 'req_123');
    expect(JSON.parse(sent)).toEqual({ ...JSON.parse(text), request_id: 'req_123' });
    expect(Object.keys(JSON.parse(sent)).at(-1)).toBe('request_id');
    expect(etagWithoutRequestId(text)).toBe(await etagByApplyCaching(text, 'req_123'));
    expect(await etagByApplyCaching(text, 'req_456')).toBe(etagWithoutRequestId(text));
  });

  it('a rendered ETag is answered 304 on If-None-Match, and dropped from an answer that is not cacheable', async () => {
    const text = JSON.stringify({ data: { slug: 'a' } });
    const etag = etagWithoutRequestId(text);
    const rendered = () => new Answer(200, [['etag', etag], JSON_TYPE], Buffer.from(withRequestId(text, 'r1')));
    const notModified = rendered();
    applyCaching(notModified, etag, 'r1', true);
    expect([notModified.status, notModified.body, notModified.headers.get('content-length')]).toEqual([304, null, null]);
    expect(notModified.headers.get('etag')).toBe(etag);
    const refused = rendered();
    applyCaching(refused, null, 'r1', false);
    expect(refused.headers.get('etag')).toBeNull();
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('a route encodes its text once: the sent bytes and the ETag made from those bytes equal the ones made from the text', async () => {
    // Any JSON object, with text past ASCII (é, an en dash, emoji, U+2028) and long enough for ICU's conversion.
    const objectText = fc
      .oneof(fc.object(), fc.dictionary(fc.string(), fc.string({ unit: 'binary', maxLength: 3000 })))
      .map((o) => JSON.stringify(o));
    const requestId = fc.stringMatching(/^req_[A-Za-z0-9_-]{1,24}$/);
    await fc.assert(
      fc.asyncProperty(objectText, requestId, async (text, id) => {
        const bytes = utf8Bytes(text);
        expect(withRequestIdBytes(bytes, id).equals(Buffer.from(withRequestId(text, id)))).toBe(true);
        expect(etagOfObjectBytes(bytes)).toBe(await etagByApplyCaching(text, id));
      }),
      { numRuns: 300 },
    );
    const text = JSON.stringify({ data: { price_range: '$29,500–$41,700', note: 'café 🎉' } });
    expect(etagOfObjectBytes(utf8Bytes(text))).toBe(await etagByApplyCaching(text, 'req_789'));
  });
});
