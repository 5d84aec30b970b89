import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import type { CategoryId, Pet, PetId, PetStatus } from '../pet.js';
import type { PetRepository } from '../ports/index.js';
import { type ListedPage, listPages, type PageRequest } from './list-page.js';

/** Which page of pets to list: its size, an optional status and category, and where to resume. */
export interface ListPetsRequest extends PageRequest<PetId> {
  readonly status?: PetStatus;
  /** Only the pets of this category (interface 1.3). */
  readonly categoryId?: CategoryId;
}

/** One page of pets, and whether more follow it. */
export type PetPage = ListedPage<'pets', Pet>;

/** The use case that lists one page of pets: it cannot fail in the domain. */
export type ListPets = (request: ListPetsRequest) => TaskEither<never, PetPage>;

/** Lists pets in ascending id order, at most `limit`, optionally of one status and category, after a given pet. */
export const listPets = (pets: PetRepository): ListPets => listPages('pets', (query: ListPetsRequest) => pets.list(query));
