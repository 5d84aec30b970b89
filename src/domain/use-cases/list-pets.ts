import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { Limit } from '../page.js';
import type { CategoryId, Pet, PetId, PetStatus } from '../pet.js';
import type { PetRepository } from '../ports/index.js';

/** Which page of pets to list: its size, an optional status, and where to resume. */
export interface ListPetsRequest {
  readonly limit: Limit;
  readonly status?: PetStatus;
  /** Only the pets of this category (interface 1.3). */
  readonly categoryId?: CategoryId;
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
    const { items, hasMore } = pageOf(await pets.list({ ...request, limit: request.limit + 1 }), request.limit);
    return E.right({ pets: items, hasMore });
  };

/** A page of at most `limit` of `found`, read with one more than the page holds: that one tells, without counting, whether another page follows. */
export const pageOf = <T>(found: readonly T[], limit: number): { readonly items: readonly T[]; readonly hasMore: boolean } =>
  found.length > limit ? { items: found.slice(0, limit), hasMore: true } : { items: found, hasMore: false };
