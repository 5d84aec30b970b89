import * as TE from 'fp-ts/lib/TaskEither.js';
import { type PetNotFound, petNotFound } from '../errors.js';
import type { Pet, PetId } from '../pet.js';
import type { VersionedPet } from '../pet-changes.js';
import type { PetRepository } from '../ports/index.js';
import { fetchById } from './fetch-by-id.js';

/** The use case that fetches one pet with its version (for an ETag), or answers {@link PetNotFound}. */
export type GetVersionedPet = (id: PetId) => TE.TaskEither<PetNotFound, VersionedPet>;

/** Fetches one pet and its version by the pet's id, or says that no pet has it. */
export const getVersionedPet = (pets: PetRepository): GetVersionedPet => fetchById((id: PetId) => pets.findVersioned(id), petNotFound);

/** The use case that fetches one pet, or answers {@link PetNotFound}. */
export type GetPet = (id: PetId) => TE.TaskEither<PetNotFound, Pet>;

/** Fetches one pet by its id, or says that no pet has it: {@link getVersionedPet} without the version. */
export const getPet = (pets: PetRepository): GetPet => {
  const getVersioned = getVersionedPet(pets);
  return (id) => TE.map((found: VersionedPet) => found.pet)(getVersioned(id));
};
