// An order's line of the export format (from format version 4, interface 1.3): the order as
// the interface writes it, times in UTC to the millisecond, with its version. The idempotency
// key it was placed with is not carried (ArchivedOrder says why).
import * as t from 'io-ts';
import { exactObject, positiveId } from '../domain/codec.js';
import { type ArchivedOrder, OrderId, OrderNote, OrderStatus, PetId } from '../domain/index.js';
import { IsoTime } from './line-codecs.js';

const OrderVersion = positiveId<{ readonly OrderVersion: unique symbol }>('OrderVersion');

/** The codec of an order's line (format version 4 on). */
export const ORDER_LINE = exactObject(
  'OrderLine',
  {
    kind: t.literal('order'),
    id: OrderId,
    petId: PetId,
    status: OrderStatus,
    placedAt: IsoTime,
    updatedAt: IsoTime,
    version: OrderVersion,
  },
  { note: OrderNote },
);

/** The order of a decoded line (without its kind): no note is a null one. */
export function orderOfLine(fields: object): ArchivedOrder {
  const line = fields as Omit<t.TypeOf<typeof ORDER_LINE>, 'kind'>;
  return {
    id: line.id,
    petId: line.petId,
    status: line.status,
    note: line.note ?? null,
    placedAt: new Date(line.placedAt),
    updatedAt: new Date(line.updatedAt),
    version: line.version,
  };
}

/** The canonical line of an order: the interface's fields in its order (the note only when there is one), then its version. */
export const orderLine = (order: ArchivedOrder): string =>
  JSON.stringify({
    kind: 'order',
    id: order.id,
    petId: order.petId,
    status: order.status,
    placedAt: order.placedAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    ...(order.note === null ? {} : { note: order.note }),
    version: order.version,
  });
