import * as E from 'fp-ts/lib/Either.js';
import type { TaskEither } from 'fp-ts/lib/TaskEither.js';
import { type UnknownCategory, unknownCategory } from '../errors.js';
import { DEFAULT_PET_STATUS, type NewPet, type Pet, type PetDraft } from '../pet.js';
import type { CategoryRule, PetRepository } from '../ports/index.js';
import { UnknownCategoryError } from '../unknown-category-error.js';

/** The use case that adds a pet: it fails in the domain only for a category the rule `registered` does not know. */
export type CreatePet = (newPet: NewPet) => TaskEither<UnknownCategory, Pet>;

/** The pet a NewPet asks for: one created without a status is `available`. */
export const draftOf = (newPet: NewPet): PetDraft => ({
  name: newPet.name,
  categoryId: newPet.categoryId,
  status: newPet.status ?? DEFAULT_PET_STATUS,
});

/** A write's UnknownCategoryError as the use cases' result; any other fault as it was. */
export const unknownCategoryOf = (fault: unknown): E.Either<UnknownCategory, never> => {
  if (fault instanceof UnknownCategoryError) return E.left(unknownCategory(fault.categoryId));
  throw fault;
};

/** Adds a pet; with the rule `registered`, only in a category that exists. */
export const createPet =
  (pets: PetRepository, rule: CategoryRule = 'open'): CreatePet =>
  (newPet) =>
  () =>
    pets.create(draftOf(newPet), rule).then(E.right, unknownCategoryOf);
