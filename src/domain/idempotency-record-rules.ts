// What an idempotency record must be to be restored (an import reads it from a file that may
// have been edited): one the service itself could have stored. A completed record whose
// fingerprint is not that of its pet would answer a retry with a pet it did not ask for.
import { fingerprintOf, isFingerprint } from './creation-fingerprint.js';
import type { ArchivedIdempotencyRecord } from './ports/index.js';
import type { FieldProblem } from './validation.js';

/** Every way `record` differs from a record the service stores, each with the JSON Pointer of its field; none when it is one. */
export function idempotencyRecordProblems(record: ArchivedIdempotencyRecord): readonly FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (record.pet !== null) {
    const expected = fingerprintOf(record.pet);
    if (record.fingerprint !== expected) problems.push({ pointer: '/fingerprint', message: `must be that of /pet, ${expected}` });
  } else if (!isFingerprint(record.fingerprint)) {
    problems.push({ pointer: '/fingerprint', message: 'must be the fingerprint of a pet, as ["Rex",1,"available"]' });
  }
  // A claim leases its record for far less than it keeps it.
  if (record.leaseExpiresAt.getTime() > record.expiresAt.getTime()) {
    problems.push({ pointer: '/leaseExpiresAt', message: 'must not be after /expiresAt' });
  }
  return problems;
}
