// What the bench's realistic cases measure of compression (src/http/conventions.ts): an answer that went through the
// response cache is packed once per encoding and finished per request (its request_id differs), and every stream
// decodes to the answer exactly, in line or on the thread pool.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { Answer } from '../../src/http/answer.js';
import { applyCompression, compressAnswer, preferredEncoding, type Encoding } from '../../src/http/conventions.js';
import { COMPRESSION_SETTINGS, measureCompression } from '../../bench/compression-levels.js';

// zstd is decoded by another implementation than the one that encodes it (fzstd, in JavaScript), which reads
// concatenated frames as the format says.
const decode = (encoding: string | null, bytes: Buffer) =>
  (encoding === 'br'
    ? brotliDecompressSync(bytes)
    : encoding === 'gzip'
      ? gunzipSync(bytes)
      : encoding === 'zstd'
        ? Buffer.from(zstdDecompress(bytes))
        : bytes
  ).toString();

/** A REST body as the API sends it: the object with request_id as its last member. */
const restBody = (items: number, requestId: string) =>
  `${JSON.stringify({ data: Array.from({ length: items }, (_, i) => ({ slug: `venue-${i}`, name: `Venue ${i} – «Ñ»` })) }).slice(0, -1)},"request_id":"${requestId}"}`;

async function compressed(body: string, encoding: Encoding, headers: Record<string, string> = {}) {
  const answer = new Answer(200, Object.entries({ 'content-type': 'application/json; charset=utf-8', ...headers }), Buffer.from(body));
  await applyCompression(encoding, answer);
  const response = answer.toResponse();
  const bytes = Buffer.from(await response.arrayBuffer());
  return { response, bytes, text: decode(response.headers.get('content-encoding'), bytes) };
}

describe('compression of answers', () => {
  for (const encoding of ['br', 'zstd', 'gzip'] as const) {
    it(`${encoding}: a cached answer's stable part is packed once; each request's request_id follows it, and it decodes exactly`, async () => {
      const etag = `W/"test-${encoding}"`;
      const miss = await compressed(restBody(200, 'req_AAAAAAAAAAAAAAAA'), encoding, { etag, 'x-cache': 'MISS' });
      const hit = await compressed(restBody(200, 'req_client-id:42.x'), encoding, { etag, 'x-cache': 'HIT' });
      expect(miss.response.headers.get('content-encoding')).toBe(encoding);
      expect(miss.text).toBe(restBody(200, 'req_AAAAAAAAAAAAAAAA'));
      expect(hit.text).toBe(restBody(200, 'req_client-id:42.x'));
      expect(hit.response.headers.get('content-length')).toBe(String(hit.bytes.byteLength));
      // The same packed part, then the answer's own tail: the hit compressed nothing.
      const shared = miss.bytes.byteLength - (encoding === 'br' ? 40 : 50);
      expect(hit.bytes.subarray(0, shared).equals(miss.bytes.subarray(0, shared))).toBe(true);
    });

    it(`${encoding}: a cached answer without request_id (GraphQL) and one not cached decode exactly`, async () => {
      const graphql = JSON.stringify({ data: { venues: { nodes: Array.from({ length: 100 }, (_, i) => ({ slug: `v${i}` })) } } });
      expect((await compressed(graphql, encoding, { 'x-cache': 'MISS' })).text).toBe(graphql);
      expect((await compressed(graphql, encoding, { 'x-cache': 'HIT' })).text).toBe(graphql);
      const plain = await compressed(restBody(100, 'req_BBBBBBBBBBBBBBBB'), encoding);
      expect(plain.text).toBe(restBody(100, 'req_BBBBBBBBBBBBBBBB'));
    });

    it(`${encoding}: a body over the in-line bound is compressed on the thread pool, the same bytes back`, async () => {
      const large = restBody(6000, 'req_CCCCCCCCCCCCCCCC');
      expect(Buffer.byteLength(large)).toBeGreaterThan(128 * 1024);
      expect(decode(encoding, await compressAnswer(Buffer.from(large), encoding))).toBe(large);
      expect((await compressed(large, encoding, { etag: `W/"large-${encoding}"`, 'x-cache': 'MISS' })).text).toBe(large);
    });
  }

  it('leaves a body under 1 KB as it is, with Vary', async () => {
    const small = await compressed('{"data":[],"request_id":"req_x"}', 'br', { 'x-cache': 'HIT' });
    expect(small.response.headers.get('content-encoding')).toBeNull();
    expect(small.response.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('the client weighs the encodings: its highest q wins, br before zstd before gzip at equal weight, * for the rest', () => {
    for (const [header, chosen] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['zstd, gzip', 'zstd'],
      ['gzip', 'gzip'],
      ['gzip;q=1, zstd;q=0.5, br;q=0.4', 'gzip'],
      ['br;q=0.2, zstd', 'zstd'],
      ['BR ; Q=0.9, gzip;q=0.8', 'br'],
      ['*', 'br'],
      ['br;q=0, *', 'zstd'],
      ['*;q=0, gzip', 'gzip'],
      ['identity', null],
      ['br;q=0, zstd;q=0, gzip;q=0', null],
      ['gzip;q=abc', null],
      ['', null],
      [null, null],
    ] as const)
      expect(preferredEncoding(header), String(header)).toBe(chosen);
  });

  it('the levels measurement covers gzip 1/4/6, brotli 1/3/4/5 and zstd 1/2/3 on each body, sizes falling with the level', async () => {
    const rows = await measureCompression({ R1: restBody(200, 'req_DDDDDDDDDDDDDDDD') }, 3);
    expect(rows.map((r) => `${r.encoding}${r.level}`)).toEqual(COMPRESSION_SETTINGS.map((s) => `${s.encoding}${s.level}`));
    const br = rows.filter((r) => r.encoding === 'br').map((r) => r.bytes);
    expect(br[0]).toBeGreaterThanOrEqual(br[br.length - 1]);
  });
});
