// The reference behaviour of IdempotencyStore (see test/contract/idempotency-store.contract.ts).
import { randomUUID } from 'node:crypto';
import type {
  IdempotencyClaim,
  IdempotencyClaimRequest,
  IdempotencyHold,
  IdempotencyRecordId,
  IdempotencyStore,
  Pet,
} from '../../domain/index.js';

interface MemoryRecord {
  readonly token: string;
  readonly fingerprint: string;
  readonly expiresAt: number;
  readonly leaseExpiresAt: number;
  readonly pet?: Pet;
}

// Scope and key joined by a character neither can hold, so that no two pairs share an entry.
const entryOf = ({ scope, key }: IdempotencyRecordId): string => `${scope}\u0000${key}`;

/** Idempotency records in memory: the reference behaviour of {@link IdempotencyStore}. Nothing is kept after exit. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, MemoryRecord>();

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const entry = entryOf(request);
    const now = request.now.getTime();
    const found = this.records.get(entry);
    if (found !== undefined && found.expiresAt > now) {
      if (found.pet !== undefined) return { kind: 'completed', fingerprint: found.fingerprint, pet: found.pet };
      if (found.leaseExpiresAt > now) return { kind: 'in-progress', fingerprint: found.fingerprint };
    }
    const token = randomUUID();
    this.records.delete(entry); // re-inserted last, keeping the map in order of expiry
    this.records.set(entry, {
      token,
      fingerprint: request.fingerprint,
      expiresAt: request.expiresAt.getTime(),
      leaseExpiresAt: request.leaseExpiresAt.getTime(),
    });
    this.forgetExpired(now);
    return { kind: 'claimed', token };
  }

  async release(id: IdempotencyRecordId, token: string): Promise<void> {
    if (this.holds({ ...id, token })) this.records.delete(entryOf(id));
  }

  /** Whether `hold` still holds its record, in progress: what MemoryPetRepository checks before it creates. */
  holds(hold: IdempotencyHold): boolean {
    const found = this.records.get(entryOf(hold));
    return found?.token === hold.token && found.pet === undefined;
  }

  /**
   * Records `pet` as the result of the record `hold` holds, in the same synchronous step as
   * MemoryPetRepository stores it (see PetRepository.createCompleting); `holds(hold)` must be true.
   */
  completeHeld(hold: IdempotencyHold, pet: Pet): void {
    const found = this.records.get(entryOf(hold));
    if (found === undefined || !this.holds(hold)) throw new Error('completeHeld of a record the hold does not hold');
    this.records.set(entryOf(hold), { ...found, pet });
  }

  // Bounded memory: expired records go whenever a new one comes (a Map iterates in insertion order).
  private forgetExpired(now: number): void {
    for (const [entry, record] of this.records) {
      if (record.expiresAt > now) break;
      this.records.delete(entry);
    }
  }
}
