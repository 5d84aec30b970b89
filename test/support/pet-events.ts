// Events of the domain as the relay hands them to a transport: each change with a fresh id, the
// next sequence and a time of its own, for the tests of transports.
import { randomUUID } from 'node:crypto';
import type { CategoryId, PetChange, PetEvent, PetId, PetName } from '../../src/domain/index.js';

let sequence = 0;

/** `change` as an event of the outbox: a new id, the next sequence, a time one second after the last. */
export const eventOf = (change: PetChange): PetEvent => ({
  ...change,
  id: randomUUID(),
  sequence: ++sequence,
  time: new Date(Date.UTC(2026, 10, 26, 9, 30, sequence)),
});

/** An available pet of category 3. */
export const pet = (id: number, name: string) => ({
  id: id as PetId,
  name: name as PetName,
  categoryId: 3 as CategoryId,
  status: 'available' as const,
});
