// Pets and orders read back from a jsonb column (an event's data, a completed idempotency record): jsonb
// keeps an object's keys sorted by length, {id, name, status, categoryId}, whatever order
// they were written in. Rebuilt in the interface's order, they leave the service as the same
// bytes as from the other storages: an event's envelope, a replayed create, an export.
import type { EventData, OrderData, Pet } from '../../domain/index.js';

/** `pet`, as read from jsonb, with its keys in the interface's order. */
export const petFromJsonb = ({ id, name, categoryId, status }: Pet): Pet => ({ id, name, categoryId, status });

/** `order`, as read from jsonb, with its keys in the interface's order. */
export const orderFromJsonb = ({ id, petId, status, placedAt, updatedAt, note }: OrderData): OrderData => ({
  id,
  petId,
  status,
  placedAt,
  updatedAt,
  ...(note === undefined ? {} : { note }),
});

/** An event's `data`, as read from jsonb, with its keys in the interface's order: a pet, an order, a category, or a deleted one's `{id}`. */
export const eventDataFromJsonb = (data: EventData): EventData =>
  'placedAt' in data
    ? orderFromJsonb(data)
    : 'status' in data
      ? petFromJsonb(data)
      : 'name' in data
        ? { id: data.id, name: data.name }
        : data;
