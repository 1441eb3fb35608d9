// The text helpers' bounds and the JSON Schema they publish say the same thing: whatever the published schema accepts,
// the parser accepts (the contract fuzz, test/rest/contract-fuzz.test.ts, relies on it for every text input).
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { characters, nonEmptyText, textOfLength, trimmedTextPattern } from '../../src/errors/validation.js';

/** Text rich in what the rules turn on: spaces of several kinds, NUL, astral characters. */
const edgyText = fc.string({ unit: fc.constantFrom(' ', '\t', '\u3000', '\u00a0', '\ufeff', '\u0000', 'a', 'é', '😀'), maxLength: 12 });
const anyText = fc.oneof(edgyText, fc.string({ unit: 'binary', maxLength: 12 }));

describe('text bounds', () => {
  it('counts characters as code points, as JSON Schema and PostgreSQL do', () => {
    expect([characters(''), characters('abc'), characters('😀😀'), characters('a\ud800b')]).toEqual([0, 3, 2, 3]);
    fc.assert(fc.property(anyText, (text) => characters(text) === [...text].length));
  });

  it('trimmedTextPattern(min) matches exactly the storable text that keeps min characters once trimmed', () => {
    for (const min of [1, 2, 3]) {
      const pattern = new RegExp(trimmedTextPattern(min), 'u');
      fc.assert(fc.property(anyText, (text) => pattern.test(text) === (!text.includes('\u0000') && characters(text.trim()) >= min)));
    }
  });

  it('whatever the published schema of a text input accepts, its parser accepts', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const schema of [textOfLength(3, 8), nonEmptyText(5)]) {
      const validate = ajv.compile(z.toJSONSchema(schema, { io: 'input' }));
      fc.assert(fc.property(anyText, (text) => !validate(text) || schema.safeParse(text).success));
    }
  });
});
