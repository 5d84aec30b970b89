// The {petId} of /pets/{petId} (see id-path.ts).
import { type PetId, type PetNotFound, petNotFound } from '../../../domain/index.js';
import { idPath } from './id-path.js';
import { PetPathParams } from './parameters.js';

const petIdPath = idPath<PetId, PetNotFound, 'petId'>(PetPathParams, 'petId', petNotFound);

/** Decodes the path's petId for {@link petIdOf}, or answers 400 naming it. */
export const readPetId = petIdPath.read;

/** The pet id readPetId decoded, or PetNotFound for an id no pet can have. */
export const petIdOf = petIdPath.idOf;
