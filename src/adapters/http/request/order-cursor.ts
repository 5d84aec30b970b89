// The opaque cursor of the order list: after which order the next page starts, and for which
// filters (status and pet). Sealed as the pets' cursor is (page-cursor.ts): a cursor of the
// pet list is not one of the order list, nor the other way round.
import * as t from 'io-ts';
import { type OrderId, OrderStatus, type PetId } from '../../../domain/index.js';
import { openCursor, sealCursor } from './page-cursor.js';

/** Where a page of the order list starts, within which filters. */
export interface OrderPagePosition {
  readonly afterId: OrderId;
  readonly status: OrderStatus | undefined;
  readonly petId: PetId | undefined;
}

const PAYLOAD = /^o1:([1-9][0-9]{0,15}):([a-z]*):([1-9][0-9]{0,15})?$/;

/** The cursor of a position, as sent in `Link: rel="next"`. */
export const encodeOrderCursor = (position: OrderPagePosition): string =>
  sealCursor(`o1:${position.afterId}:${position.status ?? ''}:${position.petId ?? ''}`);

/** The position a cursor names, or undefined when it is not an order cursor this service issued. */
export function decodeOrderCursor(cursor: string): OrderPagePosition | undefined {
  const match = PAYLOAD.exec(openCursor(cursor) ?? '');
  if (match === null) return undefined;
  const status = match[2] === '' ? undefined : match[2];
  if (status !== undefined && !OrderStatus.is(status)) return undefined;
  const position = {
    afterId: Number(match[1]) as OrderId,
    status,
    petId: match[3] === undefined ? undefined : (Number(match[3]) as PetId),
  };
  const exact = Number.isSafeInteger(position.afterId) && (position.petId === undefined || Number.isSafeInteger(position.petId));
  // Re-encoding must give the cursor back: base64url has several spellings of some bytes.
  return exact && encodeOrderCursor(position) === cursor ? position : undefined;
}

/** `cursor` of the order list as it comes in the query string. */
export const OrderCursorFromText = new t.Type<OrderPagePosition, unknown, unknown>(
  'OrderCursor',
  (u): u is OrderPagePosition => typeof u === 'object' && u !== null && 'afterId' in u,
  (u, c) => {
    const position = typeof u === 'string' ? decodeOrderCursor(u) : undefined;
    return position === undefined
      ? t.failure(u, c, 'is not a cursor this service issued: use the Link rel="next" of the previous page as it is')
      : t.success(position);
  },
  encodeOrderCursor,
);
