// The opaque cursor of the pet list: where the next page starts (after which pet) and for
// which status filter. Clients must not parse it. A checksum makes an edited or truncated
// cursor fail loudly instead of silently paging from somewhere else. It is not a secret:
// a cursor only names a position in a list its holder may read anyway, so it needs no key
// and stays valid across restarts and across server instances.
import { timingSafeEqual } from 'node:crypto';
import * as t from 'io-ts';
import { type CategoryId, type PetId, PetStatus } from '../../../domain/index.js';
import { sha256Bytes } from '../../shared/sha256.js';

/** Where a page of the pet list starts: after which pet, within which status filter. */
export interface PagePosition {
  readonly afterId: PetId;
  /** The status filter the cursor was issued for; undefined for the unfiltered list. */
  readonly status: PetStatus | undefined;
  /** The category filter it was issued for (interface 1.3); undefined for every category. */
  readonly categoryId?: CategoryId | undefined;
}

// The first 12 bytes of the payload's SHA-256 (every list page with a next page makes one).
const checksum = (payload: string): Buffer => sha256Bytes(`petstore-cursor\u0000${payload}`).subarray(0, 12);

/** `payload` as an opaque cursor: base64url, and its checksum. */
export const sealCursor = (payload: string): string =>
  `${Buffer.from(payload).toString('base64url')}.${checksum(payload).toString('base64url')}`;

/** The payload of a cursor {@link sealCursor} made, or undefined when its checksum does not hold. */
export function openCursor(cursor: string): string | undefined {
  const [encodedPayload, encodedSum, extra] = cursor.split('.');
  if (encodedPayload === undefined || encodedSum === undefined || extra !== undefined) return undefined;
  const payload = Buffer.from(encodedPayload, 'base64url').toString('utf8');
  const sum = Buffer.from(encodedSum, 'base64url');
  const expected = checksum(payload);
  return sum.length === expected.length && timingSafeEqual(sum, expected) ? payload : undefined;
}

/**
 * The opaque, checksummed cursor of a position, as sent in `Link: rel="next"`: `p1` as
 * interface 1.2 issued it, `p2` when it keeps a category filter too.
 */
export function encodeCursor(position: PagePosition): string {
  const base = `${position.afterId}:${position.status ?? ''}`;
  return sealCursor(position.categoryId === undefined ? `p1:${base}` : `p2:${base}:${position.categoryId}`);
}

const PAYLOAD = /^(?:p1:([1-9][0-9]{0,15}):([a-z]*)|p2:([1-9][0-9]{0,15}):([a-z]*):(-?[0-9]{1,16}))$/;

/** The position a cursor names, or undefined when it is not a cursor this service issued. */
export function decodeCursor(cursor: string): PagePosition | undefined {
  const match = PAYLOAD.exec(openCursor(cursor) ?? '');
  if (match === null) return undefined;
  const [afterId, status, categoryId] = match[1] !== undefined ? [match[1], match[2]!, undefined] : [match[3]!, match[4]!, match[5]!];
  const position = {
    afterId: Number(afterId) as PetId,
    status: status === '' ? undefined : (status as PetStatus),
    ...(categoryId === undefined ? {} : { categoryId: Number(categoryId) as CategoryId }),
  };
  const safe = Number.isSafeInteger(position.afterId) && (categoryId === undefined || Number.isSafeInteger(Number(categoryId)));
  return safe && encodeCursor(position) === cursor ? position : undefined;
}

/** The cursor of the category list: after which category (ids may be negative). */
export const encodeCategoryCursor = (afterId: CategoryId): string => sealCursor(`c1:${afterId}`);

/** The category a category-list cursor resumes after, or undefined when it is not one this service issued. */
export function decodeCategoryCursor(cursor: string): CategoryId | undefined {
  const match = /^c1:(-?[0-9]{1,16})$/.exec(openCursor(cursor) ?? '');
  const afterId = match === null ? Number.NaN : Number(match[1]);
  return Number.isSafeInteger(afterId) && encodeCategoryCursor(afterId as CategoryId) === cursor ? (afterId as CategoryId) : undefined;
}

/** Why a cursor is refused: it was not issued by this service, or was edited. */
const NOT_ISSUED = 'is not a cursor this service issued: use the Link rel="next" of the previous page as it is';

/** `cursor` of the category list as it comes in the query string. */
export const CategoryCursorFromText = new t.Type<CategoryId, unknown, unknown>(
  'CategoryCursor',
  (u): u is CategoryId => typeof u === 'number',
  (u, c) => {
    const afterId = typeof u === 'string' ? decodeCategoryCursor(u) : undefined;
    return afterId === undefined ? t.failure(u, c, NOT_ISSUED) : t.success(afterId);
  },
  encodeCategoryCursor,
);

/** `cursor` as it comes in the query string. */
export const CursorFromText = new t.Type<PagePosition, unknown, unknown>(
  'Cursor',
  (u): u is PagePosition => typeof u === 'object' && u !== null && 'afterId' in u,
  (u, c) => {
    const position = typeof u === 'string' ? decodeCursor(u) : undefined;
    return position === undefined || (position.status !== undefined && !PetStatus.is(position.status))
      ? t.failure(u, c, NOT_ISSUED)
      : t.success(position);
  },
  (position) => encodeCursor(position),
);
