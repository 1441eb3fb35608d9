import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { utf8Bytes } from '../../src/http/utf8.js';

// At least this many: the length past which utf8Bytes converts with ICU instead of Node's encoder.
const LONG = 2048;
const RUNS = Math.min(Number(process.env.PROPERTY_RUNS ?? 100), 500);

describe('utf8Bytes: the bytes of a response body', () => {
  it('are the bytes Node encodes for any text, short or long, lone surrogates included', () => {
    // 'binary' units: any UTF-16 code unit, so lone surrogates and astral pairs both occur.
    const text = fc.string({ unit: 'binary', maxLength: 64 });
    fc.assert(
      fc.property(text, fc.nat({ max: 3 * LONG }), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), (sample, padding, pad) => {
        for (const body of [sample, pad.repeat(padding) + sample, sample + pad.repeat(padding)]) {
          expect(utf8Bytes(body).equals(Buffer.from(body))).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('encode a long JSON body with non-ASCII text, an astral character and an escaped lone surrogate as Node does', () => {
    const venues = Array.from({ length: 200 }, (_, i) => ({
      name: `Château ${i} – “Sonoma” 🌲`,
      price_range: '$23,900–$33,700',
      note: 'a\ud800b',
    }));
    const body = JSON.stringify({ data: venues });
    expect(body.length).toBeGreaterThan(LONG);
    const bytes = utf8Bytes(body);
    expect(bytes.equals(Buffer.from(body))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ data: venues });
  });

  it('are bytes of their own: a later body, longer, shorter or past the reused copy, leaves an earlier one as it was', () => {
    const bodies = [`${'é'.repeat(LONG)}`, `${'z'.repeat(3 * LONG)}`, `${'ü'.repeat(LONG + 1)}`, `${'ß'.repeat(300_000)}`, `${'a'.repeat(LONG)}`];
    const encoded = bodies.map((body) => utf8Bytes(body));
    bodies.forEach((body, i) => expect(encoded[i].equals(Buffer.from(body))).toBe(true));
  });

  it('replace a lone surrogate in a long text with U+FFFD, as Node does', () => {
    const body = `${'x'.repeat(LONG)}\udc00end`;
    expect(utf8Bytes(body).subarray(LONG).toString('hex')).toBe('efbfbd656e64');
  });
});
