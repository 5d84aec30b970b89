// How a pet may change: the status transitions, the merge patch of its fields, and its version.
import * as t from 'io-ts';
import { exactObject } from './codec.js';
import { CategoryId, type Pet, type PetDraft, PetName, PetStatus } from './pet.js';

/**
 * Where each status may go. A sold pet has left the store: sold is final. Staying in the same
 * status is no change and always allowed (see {@link canChangeStatus}).
 */
const NEXT_STATUSES: Readonly<Record<PetStatus, readonly PetStatus[]>> = {
  available: ['pending', 'sold'],
  pending: ['available', 'sold'],
  sold: [],
};

/** The statuses a pet in `from` may be moved to (not counting `from` itself). */
export const statusesAllowedFrom = (from: PetStatus): readonly PetStatus[] => NEXT_STATUSES[from];

/** Whether a pet in `from` may be given `to`: one of the allowed transitions, or the same status. */
export const canChangeStatus = (from: PetStatus, to: PetStatus): boolean => from === to || NEXT_STATUSES[from].includes(to);

/**
 * The body of a change: a JSON merge patch (RFC 7396) of the fields a client may change, each
 * optional and checked as for creation. A pet's fields cannot be removed, so `null` is refused
 * as an invalid value, and an unknown field as for creation.
 */
export const PetPatch = exactObject('PetPatch', {}, { name: PetName, categoryId: CategoryId, status: PetStatus });
export type PetPatch = t.TypeOf<typeof PetPatch>;

/** The pet `patch` asks for: the current fields, each replaced by the patch's when it has one. */
export const patchedPet = (current: Pet, patch: PetPatch): PetDraft => ({
  name: patch.name ?? current.name,
  categoryId: patch.categoryId ?? current.categoryId,
  status: patch.status ?? current.status,
});

/** Whether `draft` holds exactly the fields of `pet`: storing it would change nothing. */
export const changesNothing = (pet: Pet, draft: PetDraft): boolean =>
  pet.name === draft.name && pet.categoryId === draft.categoryId && pet.status === draft.status;

/** The version of a stored pet: 1 when it is created, one more at each change. */
export type PetVersion = number;

/** The version every new pet starts at. */
export const FIRST_PET_VERSION: PetVersion = 1;

/** A pet as stored, with its version: what a conditional request compares. */
export interface VersionedPet {
  readonly pet: Pet;
  readonly version: PetVersion;
}

/**
 * What a conditional change expects of the stored pet: any version (no condition, or
 * `If-Match: *`), or one of the listed versions (an empty list matches none).
 */
export type ExpectedVersion = 'any' | readonly PetVersion[];

/** Whether the stored version meets the expectation. */
export const meetsExpectation = (version: PetVersion, expected: ExpectedVersion): boolean =>
  expected === 'any' || expected.includes(version);

/**
 * The versions a conditional change may be made on: one it `expected` (If-Match), and none it
 * `excluded` (If-None-Match; `any` excludes every version, so the change is refused whenever
 * the pet exists).
 */
export interface VersionCondition {
  readonly expected: ExpectedVersion;
  readonly excluded?: ExpectedVersion | undefined;
}

/** A conditional change of the resource `id` (a pet, an order, a category): which one, and the versions the client expects it in. */
export interface ChangeRequest<I> extends VersionCondition {
  readonly id: I;
}

/** A conditional change that carries a merge patch of the resource's fields. */
export interface PatchRequest<I, P> extends ChangeRequest<I> {
  readonly patch: P;
}

/** Which part of `condition` the stored version fails, or undefined when it meets it. */
export const failedCondition = (version: PetVersion, { expected, excluded }: VersionCondition): 'expected' | 'excluded' | undefined =>
  !meetsExpectation(version, expected)
    ? 'expected'
    : excluded !== undefined && meetsExpectation(version, excluded)
      ? 'excluded'
      : undefined;
