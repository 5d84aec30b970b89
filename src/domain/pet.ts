// What a pet is: the codecs of the interface's resources and the types they give.
import * as t from 'io-ts';
import { constrained, exactObject, positiveId, withMessage } from './codec.js';
import { storedText } from './text.js';

/** The availability of a pet. The interface fixes exactly these three values. */
export const PetStatus = withMessage(
  t.keyof({ available: null, pending: null, sold: null }, 'PetStatus'),
  'must be one of available, pending, sold',
);
export type PetStatus = t.TypeOf<typeof PetStatus>;
/** Every pet status, in the interface's order. */
export const PET_STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/** The status a pet gets when it is created without one: a new animal in the store is available. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';

/** The most Unicode code points a pet name may have. */
export const MAX_PET_NAME_LENGTH = 100;

/** Brand of {@link PetName}: a string that passed its rules. */
export interface PetNameBrand {
  readonly PetName: unique symbol;
}
/** A pet's name: 1 to 100 code points, not blank, no control characters, well-formed Unicode. Stored verbatim. */
export const PetName = storedText<PetNameBrand>('PetName', MAX_PET_NAME_LENGTH, true);
export type PetName = t.TypeOf<typeof PetName>;

const SAFE_RANGE = `between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;

/** Brand of {@link CategoryId}. */
export interface CategoryIdBrand {
  readonly CategoryId: unique symbol;
}
/**
 * The identifier of a pet's category. Categories are not managed by this service, so any
 * integer is accepted that every JSON client can carry exactly: ±(2^53−1). Larger values
 * would be rounded by JSON parsers, so they are refused rather than silently changed.
 */
export const CategoryId = constrained<number, t.Branded<number, CategoryIdBrand>>(
  'CategoryId',
  t.number,
  (n) => (Number.isSafeInteger(n) ? undefined : `must be an integer ${SAFE_RANGE}`),
  `must be an integer ${SAFE_RANGE}`,
);
export type CategoryId = t.TypeOf<typeof CategoryId>;

/** Brand of {@link PetId}. */
export interface PetIdBrand {
  readonly PetId: unique symbol;
}
/** The identifier the service assigns to a pet: a positive integer that JSON carries exactly. */
export const PetId = positiveId<PetIdBrand>('PetId');
export type PetId = t.TypeOf<typeof PetId>;

/** The body of a creation request. Unknown fields are refused so that typos are not silently dropped. */
export const NewPet = exactObject('NewPet', { name: PetName, categoryId: CategoryId }, { status: PetStatus });
export type NewPet = t.TypeOf<typeof NewPet>;

/** A pet as stored and returned: every field of NewPet, the status resolved, plus the assigned id. */
export interface Pet {
  readonly id: PetId;
  readonly name: PetName;
  readonly categoryId: CategoryId;
  readonly status: PetStatus;
}

/** A pet about to be stored: a NewPet whose status has been resolved. */
export type PetDraft = Omit<Pet, 'id'>;
