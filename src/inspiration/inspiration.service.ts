import { Prisma, type InspirationPhoto } from '../generated/prisma/client.js';
import { countRows, modelColumns, type RowReader } from '../db/row-reader.js';
import { ApiError } from '../errors/api-error.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import type { Page } from '../pagination/page.js';
import { PhotoId, type InspirationSearch } from './inspiration.inputs.js';

export interface InspirationDeps {
  readRows: RowReader;
  cursors: CursorCodec;
}

/**
 * The gallery is read through the driver, not Prisma's client: its model is one flat table of text, whole numbers and
 * text[] that pg returns exactly as Prisma does, and a Prisma read cost clearly more CPU per request than the same
 * statement through the driver (docs/performance.md, Levers).
 * Every column of the model by its Prisma name, so a row is the model's row (test/inspiration/inspiration-rows.test.ts).
 */
const PHOTO_COLUMNS = modelColumns(Prisma.InspirationPhotoScalarFieldEnum, '"InspirationPhoto"');

/** The array columns a filter matches by membership (Prisma's `has`), by the search input that names them. */
const MEMBERSHIP_FILTERS = { style: 'styles', setting: 'settings', color: 'colors', mood: 'moods' } as const;

/** A page read by offset (§2.14 offset style); also a Relay page, whose cursors carry the next offset. */
export interface OffsetPage<T> extends Page<T> {
  limit: number;
  offset: number;
}

/**
 * §4.13: photos in curated order (position), every filter an exact enumeration value (a photo matches a style when
 * the style is among its styles). Offset pagination; `after` (a cursor of this search) is the same offset, signed.
 */
export async function searchInspiration(input: InspirationSearch, deps: InspirationDeps): Promise<OffsetPage<InspirationPhoto>> {
  const { first, offset: givenOffset, after, ...filters } = input;
  if (givenOffset !== undefined && after !== undefined) {
    throw new ApiError('invalid_parameters', { problems: [{ param: 'after', problem: 'cannot be combined with offset' }] });
  }
  const scope = filterScope('inspiration', filters);
  const offset = after === undefined ? (givenOffset ?? 0) : offsetOf(deps.cursors.decode(after, scope, 'after'));
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const [filter, column] of Object.entries(MEMBERSHIP_FILTERS)) {
    const value = filters[filter as keyof typeof MEMBERSHIP_FILTERS];
    if (value !== undefined) conditions.push(`"${column}" @> ARRAY[$${params.push(value)}]::text[]`);
  }
  if (filters.season) conditions.push(`season = $${params.push(filters.season)}`);
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  const rows = await deps.readRows<InspirationPhoto>(
    `SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto"${where} ORDER BY position LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, first + 1, offset],
  );
  const hasNextPage = rows.length > first;
  const nodes = hasNextPage ? rows.slice(0, first) : rows;
  return {
    nodes,
    hasNextPage,
    hasPreviousPage: offset > 0,
    // The cursor after a node is the offset of the node that follows it.
    cursorOf: (node) => deps.cursors.encode([offset + nodes.indexOf(node) + 1], scope),
    totalCount: () => countRows(deps.readRows, `"InspirationPhoto"${where}`, params),
    limit: first,
    offset,
  };
}

function offsetOf(position: unknown[]): number {
  const [offset] = position;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw new ApiError('invalid_cursor', { param: 'after' });
  return offset;
}

/** Inspiration photo detail by UUID (§4.14): invalid_id for a malformed id, inspiration_photo_not_found otherwise. */
export async function getInspirationPhoto(rawId: unknown, deps: Pick<InspirationDeps, 'readRows'>): Promise<InspirationPhoto> {
  const id = typeof rawId === 'string' ? rawId.trim().toLowerCase() : '';
  if (!PhotoId.safeParse(id).success) throw new ApiError('invalid_id', { param: 'id' });
  const [photo] = await deps.readRows<InspirationPhoto>(`SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto" WHERE id = $1::uuid`, [id]);
  if (!photo) throw new ApiError('inspiration_photo_not_found', { param: 'id', message: `No inspiration photo has the id '${id}'.` });
  return photo;
}

/** Photos by id for node(id:)/nodes(ids:): every photo is shown, as in search and detail (one statement). */
export function inspirationPhotosById(ids: string[], deps: Pick<InspirationDeps, 'readRows'>) {
  return deps.readRows<InspirationPhoto>(`SELECT ${PHOTO_COLUMNS} FROM "InspirationPhoto" WHERE id = ANY($1::uuid[])`, [ids]);
}
