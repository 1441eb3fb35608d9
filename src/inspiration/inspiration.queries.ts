import { Prisma, type InspirationPhoto } from '../generated/prisma/client.js';
import { countRows, modelColumns, type RowReader } from '../db/row-reader.js';
import type { InspirationSearch } from './inspiration.inputs.js';

/**
 * The inspiration module's reads: a page of the gallery and its count (§4.13), a photo by id (§4.14), photos by id.
 * The gallery is read through the driver, not Prisma's client: its model is one flat table of text, whole numbers and
 * text[] that pg returns exactly as Prisma does, and a Prisma read cost clearly more CPU per request than the same
 * statement through the driver (docs/performance.md, Levers).
 */

/** The §4.13 filters, as parsed. */
export type PhotoFilters = Pick<InspirationSearch, 'style' | 'setting' | 'color' | 'mood' | 'season'>;

/** Every column of the model by its Prisma name, so a row is the model's row (test/inspiration/inspiration-rows.test.ts). */
const PHOTO_COLUMNS = modelColumns(Prisma.InspirationPhotoScalarFieldEnum, '"InspirationPhoto"');

/** The array columns a filter matches by membership (Prisma's `has`), by the search input that names them. */
const MEMBERSHIP_FILTERS = { style: 'styles', setting: 'settings', color: 'colors', mood: 'moods' } as const;

/** The filters as a WHERE clause (empty for none) and its parameters. */
function photoWhere(filters: PhotoFilters): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const [filter, column] of Object.entries(MEMBERSHIP_FILTERS)) {
    const value = filters[filter as keyof typeof MEMBERSHIP_FILTERS];
    if (value !== undefined) conditions.push(`"${column}" @> ARRAY[$${params.push(value)}]::text[]`);
  }
  if (filters.season) conditions.push(`season = $${params.push(filters.season)}`);
  return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', params };
}

/** `limit` photos matching the filters from `offset`, in curated order (position). */
export function readPhotoPage(filters: PhotoFilters, { limit, offset }: { limit: number; offset: number }, readRows: RowReader) {
  const { where, params } = photoWhere(filters);
  return readRows<InspirationPhoto>(
    `SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto"${where} ORDER BY position LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
}

/** How many photos match the filters. */
export function countPhotos(filters: PhotoFilters, readRows: RowReader): Promise<number> {
  const { where, params } = photoWhere(filters);
  return countRows(readRows, `"InspirationPhoto"${where}`, params);
}

/** The photo with this id (a well-formed UUID), or undefined. */
export async function readPhotoById(id: string, readRows: RowReader): Promise<InspirationPhoto | undefined> {
  const [photo] = await readRows<InspirationPhoto>(`SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto" WHERE id = $1::uuid`, [id]);
  return photo;
}

/** The photos among `ids`, in one statement. */
export function readPhotosById(ids: string[], readRows: RowReader) {
  return readRows<InspirationPhoto>(`SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto" WHERE id = ANY($1::uuid[])`, [ids]);
}
