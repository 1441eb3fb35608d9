import { getNamedType, isObjectType, isScalarType, parseValue, type GraphQLScalarType } from 'graphql';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/graphql/schema.js';
import { isAbsoluteUrl, isPlainHttpUrl } from '../../src/graphql/scalars.js';
import { parsesAsUrl } from '../../src/catalogue/url-parse.js';

const scalar = (name: string) => {
  const type = getSchema().getType(name);
  if (!type || !isScalarType(type)) throw new Error(`no scalar ${name}`);
  return type as GraphQLScalarType;
};

describe('meaningful scalars (src/graphql/scalars.ts)', () => {
  it('write a Date and a DateTime exactly as the resolvers did before (REST bytes unchanged)', () => {
    const instant = new Date('2026-05-20T09:00:00Z');
    expect(scalar('DateTime').serialize(instant)).toBe(instant.toISOString());
    expect(scalar('DateTime').serialize('2026-05-20T11:00:00+02:00')).toBe('2026-05-20T11:00:00+02:00');
    // A Prisma @db.Date is UTC midnight of the day.
    expect(scalar('Date').serialize(new Date('2019-01-03T00:00:00Z'))).toBe('2019-01-03');
    expect(scalar('Date').serialize('2026-11-10')).toBe('2026-11-10');
  });

  it('send a URL and a UUID as stored, never normalised', () => {
    expect(scalar('URL').serialize('https://www.mateogreerbakery.example')).toBe('https://www.mateogreerbakery.example');
    expect(scalar('URL').serialize('https://www.tiktok.com/@handle')).toBe('https://www.tiktok.com/@handle');
    expect(scalar('UUID').serialize('0001759d-9770-44db-a1b4-1064a171d06d')).toBe('0001759d-9770-44db-a1b4-1064a171d06d');
  });

  it('decide a URL exactly as WHATWG parsing does, fast path or not', () => {
    // The oracle is the parser itself (parsesAsUrl builds the URL; test/http/http-server.test.ts holds it steady).
    // Strings built near the fast path's edges (ports, numeric and punycode hosts, trailing dots, odd characters), so
    // most are close calls between its pattern and the parser.
    const piece = fc.constantFrom(
      'a',
      'Z',
      '0',
      '9',
      '-',
      '.',
      '--',
      'xn--',
      '0x1',
      '256',
      '999',
      ':',
      ':65536',
      ':65535',
      ':65529',
      ':64999',
      ':59999',
      ':40123',
      ':99999',
      ':00000',
      ':80',
      ':4500',
      ':0',
      'localhost',
      '@',
      '%',
      '%zz',
      ' ',
      '\\',
      '[',
      ']',
      '/',
      '?',
      '#',
      'é',
      '\t',
      '',
    );
    const url = fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'HTTP://', 'ftp://', 'https:/', 'mailto:', ''),
        fc.array(piece, { maxLength: 12 }),
        fc.constantFrom('', '.com', '.example', '.1', '/x?y#z', '/\u00ff'),
      )
      .map(([scheme, host, tail]) => `${scheme}${host.join('')}${tail}`);
    fc.assert(
      fc.property(fc.oneof(url, fc.string()), (value) => {
        expect(isAbsoluteUrl(value)).toBe(parsesAsUrl(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of [
      'https://1.2.3.999/x',
      'https://a.b:99999/',
      'http://localhost:4500/x',
      'http://localhost:40123/x',
      'http://localhost:65535/x',
      'http://localhost:65536/x',
      'http://localhost:70000/x',
      'http://a:00000/',
      'http://a:065535/',
      'http://a:0000/',
      'http://1:80/',
      'https://xn--zz.example/',
      'https://example.com./',
      'https://a..b.com/',
    ])
      expect(isAbsoluteUrl(value)).toBe(parsesAsUrl(value));
  });

  it('the fast URL test takes every port parsing accepts up to five digits, and none it refuses', () => {
    const disagreements: string[] = [];
    for (let port = 0; port <= 99_999; port++) {
      for (const text of [String(port), String(port).padStart(5, '0')]) {
        const value = `http://localhost:${text}/venues/a`;
        if (isPlainHttpUrl(value) !== parsesAsUrl(value)) disagreements.push(value);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('refuse values outside their contract, on output and on input', () => {
    for (const [name, bad] of [
      ['Date', '2026-02-30'],
      ['Date', '2026-05-20T09:00:00Z'],
      ['Date', ''],
      ['DateTime', '2026-05-20T09:00:00'],
      ['DateTime', '2026-05-20'],
      ['URL', 'www.example.com/page'],
      ['URL', '/venues/x'],
      ['UUID', '0001759d97704 4db'],
    ] as const) {
      expect(() => scalar(name).serialize(bad), `${name} ${bad}`).toThrow();
      expect(() => scalar(name).parseValue(bad), `${name} ${bad}`).toThrow();
      expect(() => scalar(name).parseLiteral(parseValue(JSON.stringify(bad))), `${name} ${bad}`).toThrow();
    }
    expect(() => scalar('Date').serialize(new Date(Number.NaN))).toThrow();
    expect(() => scalar('URL').serialize(42)).toThrow();
    expect(() => scalar('UUID').parseLiteral(parseValue('42'))).toThrow();
    expect(scalar('Date').parseValue('2028-02-29')).toBe('2028-02-29');
  });

  it('type every output field that holds a link, a date or an instant (no String left by name)', () => {
    // Kept String on purpose: the knowledge index date is '' when no note is indexed (not a Date).
    const waived = new Set(['KnowledgeSearchResult.asOf']);
    const stringly: string[] = [];
    for (const type of Object.values(getSchema().getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const named = getNamedType(field.type).name;
        const meaningful = /([uU]rl|[iI]mage|[lL]ink|^website|^instagram|^facebook|^tiktok|Date|At|^asOf|^small|^medium|^large|Id)$/.test(field.name);
        if (meaningful && named === 'String' && !waived.has(`${type.name}.${field.name}`)) stringly.push(`${type.name}.${field.name}`);
      }
    }
    expect(stringly).toEqual([]);
  });
});
