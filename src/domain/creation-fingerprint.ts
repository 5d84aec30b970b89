// The fingerprint of a creation request sent with an idempotency key: what a retry must ask
// for again to be answered with the pet the first request created. Stored in each idempotency
// record, and so carried by an export.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { CategoryId, type PetDraft, PetName, PetStatus } from './pet.js';

/**
 * The fingerprint of a request for `draft`. Two requests ask for the same pet when their
 * drafts are equal: field order, white space and an explicit default status do not make a
 * retry a different request.
 */
export const fingerprintOf = (draft: PetDraft): string => JSON.stringify([draft.name, draft.categoryId, draft.status]);

const FingerprintedDraft = t.tuple([PetName, CategoryId, PetStatus]);

/** Whether `fingerprint` is one that {@link fingerprintOf} gives, for some valid draft. */
export function isFingerprint(fingerprint: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(fingerprint);
  } catch {
    return false;
  }
  const decoded = FingerprintedDraft.decode(value);
  if (E.isLeft(decoded)) return false;
  const [name, categoryId, status] = decoded.right;
  // Compared as text: only the canonical form (no spaces, no extra elements) is ever stored.
  return fingerprintOf({ name, categoryId, status }) === fingerprint;
}
