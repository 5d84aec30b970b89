// The opaque cursor of the pet list: where the next page starts (after which pet) and for
// which status filter. Clients must not parse it. A checksum makes an edited or truncated
// cursor fail loudly instead of silently paging from somewhere else. It is not a secret:
// a cursor only names a position in a list its holder may read anyway, so it needs no key
// and stays valid across restarts and across server instances.
import { timingSafeEqual } from 'node:crypto';
import * as t from 'io-ts';
import { type PetId, PetStatus } from '../../../domain/index.js';
import { sha256Bytes } from '../../shared/sha256.js';

/** Where a page of the pet list starts: after which pet, within which status filter. */
export interface PagePosition {
  readonly afterId: PetId;
  /** The status filter the cursor was issued for; undefined for the unfiltered list. */
  readonly status: PetStatus | undefined;
}

const VERSION = 'p1';
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

/** The opaque, checksummed cursor of a position, as sent in `Link: rel="next"`. */
export const encodeCursor = (position: PagePosition): string => sealCursor(`${VERSION}:${position.afterId}:${position.status ?? ''}`);

const PAYLOAD = /^p1:([1-9][0-9]{0,15}):([a-z]*)$/;

/** The position a cursor names, or undefined when it is not a cursor this service issued. */
export function decodeCursor(cursor: string): PagePosition | undefined {
  const payload = openCursor(cursor);
  if (payload === undefined) return undefined;
  // Re-encoding must give the cursor back: base64url has several spellings of some bytes.
  const match = PAYLOAD.exec(payload);
  if (match === null || !Number.isSafeInteger(Number(match[1])) || encodeCursor(toPosition(match)) !== cursor) return undefined;
  return toPosition(match);
}

const toPosition = (match: RegExpExecArray): PagePosition => ({
  afterId: Number(match[1]) as PetId,
  status: match[2] === '' ? undefined : (match[2] as PetStatus),
});

/** `cursor` as it comes in the query string. */
export const CursorFromText = new t.Type<PagePosition, unknown, unknown>(
  'Cursor',
  (u): u is PagePosition => typeof u === 'object' && u !== null && 'afterId' in u,
  (u, c) => {
    const position = typeof u === 'string' ? decodeCursor(u) : undefined;
    return position === undefined || (position.status !== undefined && !PetStatus.is(position.status))
      ? t.failure(u, c, 'is not a cursor this service issued: use the Link rel="next" of the previous page as it is')
      : t.success(position);
  },
  (position) => encodeCursor(position),
);
