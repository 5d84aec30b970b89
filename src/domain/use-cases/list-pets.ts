import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Limit } from '../page.js';
import type { Pet, PetId, PetStatus } from '../pet.js';
import type { PetRepository } from '../ports/index.js';

/** Which page of pets to list: its size, an optional status, and where to resume. */
export interface ListPetsRequest {
  readonly limit: Limit;
  readonly status?: PetStatus;
  /** Resume strictly after this pet (the last one of the previous page). */
  readonly afterId?: PetId;
}

/** One page of pets, and whether more follow it. */
export interface PetPage {
  readonly pets: readonly Pet[];
  readonly hasMore: boolean;
}

/** The use case that lists one page of pets: it cannot fail in the domain. */
export type ListPets = (request: ListPetsRequest) => TaskEither<never, PetPage>;

/** Lists pets in ascending id order, at most `limit`, optionally of one status and after a given pet. */
export const listPets =
  (pets: PetRepository): ListPets =>
  (request) =>
  async () => {
    // One pet more than asked tells whether another page follows, without counting.
    const found = await pets.list({ ...request, limit: request.limit + 1 });
    return E.right(found.length > request.limit ? { pets: found.slice(0, request.limit), hasMore: true } : { pets: found, hasMore: false });
  };
