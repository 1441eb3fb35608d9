import type { InspirationPhoto } from '../generated/prisma/client.js';
import type { RowReader } from '../db/row-reader.js';
import { ApiError } from '../errors/api-error.js';
import { filterScope, type CursorCodec } from '../pagination/cursor.js';
import type { Page } from '../pagination/page.js';
import { PhotoId, type InspirationSearch } from './inspiration.inputs.js';
import { countPhotos, readPhotoById, readPhotoPage, readPhotosById } from './inspiration.queries.js';

export interface InspirationDeps {
  readRows: RowReader;
  cursors: CursorCodec;
}

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
  const rows = await readPhotoPage(filters, { limit: first + 1, offset }, deps.readRows);
  const hasNextPage = rows.length > first;
  const nodes = hasNextPage ? rows.slice(0, first) : rows;
  return {
    nodes,
    hasNextPage,
    hasPreviousPage: offset > 0,
    // The cursor after a node is the offset of the node that follows it.
    cursorOf: (node) => deps.cursors.encode([offset + nodes.indexOf(node) + 1], scope),
    totalCount: () => countPhotos(filters, deps.readRows),
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
  const photo = await readPhotoById(id, deps.readRows);
  if (!photo) throw new ApiError('inspiration_photo_not_found', { param: 'id', message: `No inspiration photo has the id '${id}'.` });
  return photo;
}

/** Photos by id for node(id:)/nodes(ids:): every photo is shown, as in search and detail (one statement). */
export function inspirationPhotosById(ids: string[], deps: Pick<InspirationDeps, 'readRows'>) {
  return readPhotosById(ids, deps.readRows);
}
