// text[] columns (venue amenities, vendor service areas) are read with postgres-array 3's parser instead of pg's
// default (src/db/client.ts, useFastTextArrays). Whatever the elements, the array read back is the array written.
import fc from 'fast-check';
import pg from 'pg';
import { parse } from 'postgres-array';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_ARRAY_OID, type Database } from '../../src/db/client.js';
import { createTestDatabase, testDatabaseKind } from '../support/database.js';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

describe(`text[] as read back (${testDatabaseKind()})`, () => {
  it('is parsed by postgres-array 3, registered for the whole process by the pool', () => {
    expect(pg.types.getTypeParser(TEXT_ARRAY_OID)).toBe(parse);
  });

  it('gives back any array of strings and nulls: quotes, backslashes, braces, commas, spaces, NULL, empty, unicode', async () => {
    const element = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000')),
      fc.constantFrom('NULL', 'null', '', '"', '\\', '\\"', '{', '}', '{}', ',', ' a ', 'a,b', '"quoted"', 'tab\there'),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(element, { maxLength: 8 }), async (array) => {
        const [row] = await db.readRows<{ a: Array<string | null> }>('SELECT $1::text[] AS a', [array]);
        expect(row.a).toEqual(array);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });

  it('gives back nested arrays and the empty array, through Prisma as through the driver', async () => {
    expect(await db.readRows('SELECT ARRAY[[$1, $2], [NULL, $3]]::text[] AS a', ['a', 'b"c', ''])).toEqual([
      {
        a: [
          ['a', 'b"c'],
          [null, ''],
        ],
      },
    ]);
    expect(await db.readRows(`SELECT '{}'::text[] AS a`, [])).toEqual([{ a: [] }]);
    const [venue] = await db.prisma.venue.findMany({ where: { amenities: { isEmpty: false } }, take: 1, select: { amenities: true } });
    const [raw] = await db.readRows<{ amenities: string[] }>('SELECT amenities FROM "Venue" WHERE amenities <> \'{}\' ORDER BY slug LIMIT 1', []);
    expect(venue.amenities.length).toBeGreaterThan(0);
    expect(raw.amenities.every((a) => typeof a === 'string')).toBe(true);
  });
});
