// The gallery is read through the driver (src/inspiration/inspiration.queries.ts), not Prisma's client. These tests
// hold its rows, pages and totals equal to what Prisma reads for the same question, on the database under test, so a
// column added to the model, a type pg reads differently, or a filter that matches differently fails here.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { createCursorCodec } from '../../src/pagination/cursor.js';
import {
  INSPIRATION_COLORS,
  INSPIRATION_MOODS,
  INSPIRATION_SEASONS,
  INSPIRATION_SETTINGS,
  INSPIRATION_STYLES,
} from '../../src/inspiration/inspiration.inputs.js';
import { getInspirationPhoto, inspirationPhotosById, searchInspiration } from '../../src/inspiration/inspiration.service.js';
import { parseInspirationSearch } from '../../src/inspiration/inspiration.inputs.js';
import { testDatabaseKind } from '../support/database.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let deps: Parameters<typeof searchInspiration>[1];
beforeAll(async () => {
  t = await createTestApp();
  deps = { readRows: t.db.readRows, cursors: createCursorCodec('inspiration-rows-test-secret-0123456789') };
});
afterAll(() => t.close());

describe(`inspiration rows read through the driver (${testDatabaseKind()})`, () => {
  it('are the rows Prisma reads, every column with its value and type, for every photo', async () => {
    const byPrisma = await t.db.prisma.inspirationPhoto.findMany({ orderBy: { id: 'asc' } });
    expect(byPrisma.length).toBeGreaterThan(0);
    const byDriver = (
      await inspirationPhotosById(
        byPrisma.map((p) => p.id),
        deps,
      )
    ).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byDriver).toEqual(byPrisma);
    expect(Object.keys(byDriver[0]).sort()).toEqual(Object.keys(byPrisma[0]).sort());
  });

  it('finds one photo by its id in any case, and none for an unknown id', async () => {
    const first = await t.db.prisma.inspirationPhoto.findFirstOrThrow({ orderBy: { position: 'asc' } });
    expect(await getInspirationPhoto(` ${first.id.toUpperCase()} `, deps)).toEqual(first);
    await expect(getInspirationPhoto('00000000-0000-4000-8000-000000000000', deps)).rejects.toMatchObject({ code: 'inspiration_photo_not_found' });
  });

  it('pages and totals any filter combination as Prisma does', async () => {
    const maybe = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    const search = fc.record({
      style: maybe(INSPIRATION_STYLES),
      setting: maybe(INSPIRATION_SETTINGS),
      color: maybe(INSPIRATION_COLORS),
      mood: maybe(INSPIRATION_MOODS),
      season: maybe(INSPIRATION_SEASONS),
      first: fc.integer({ min: 1, max: 100 }),
      offset: fc.integer({ min: 0, max: 2500 }),
    });
    await fc.assert(
      fc.asyncProperty(search, async ({ style, setting, color, mood, season, first, offset }) => {
        const where: Prisma.InspirationPhotoWhereInput = {
          AND: [
            style ? { styles: { has: style } } : {},
            setting ? { settings: { has: setting } } : {},
            color ? { colors: { has: color } } : {},
            mood ? { moods: { has: mood } } : {},
            season ? { season } : {},
          ],
        };
        const page = await searchInspiration(parseInspirationSearch({ style, setting, color, mood, season, first, offset }), deps);
        const expected = await t.db.prisma.inspirationPhoto.findMany({ where, orderBy: { position: 'asc' }, skip: offset, take: first + 1 });
        expect(page.nodes).toEqual(expected.slice(0, first));
        expect(page.hasNextPage).toBe(expected.length > first);
        expect(await page.totalCount()).toBe(await t.db.prisma.inspirationPhoto.count({ where }));
      }),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 60), 200) },
    );
  });
});
