// IdempotencyStore in the service's SQLite database, beside the pets: records survive a
// restart and are shared by every process on the same file. Each claim is one IMMEDIATE
// transaction, so two processes never both claim one key. A record is completed by
// SqlitePetRepository.createCompleting, in the transaction that stores its pet.
import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecordId, IdempotencyStore, Pet } from '../../domain/index.js';

interface RecordRow {
  fingerprint: string;
  pet: string | null;
  expires_at: number;
  lease_expires_at: number;
}

/** Expired records are deleted at most this often, in the transaction of a claim. */
const PURGE_INTERVAL_MS = 60_000;

/** Idempotency records in a SQLite database opened by {@link openSqliteDatabase}, shared by every process on the file. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly select: Statement<[string, string], RecordRow>;
  private readonly upsert: Statement<[string, string, string, string, number, number]>;
  private readonly removeInProgress: Statement<[string, string, string]>;
  private readonly purge: Statement<[number]>;
  private readonly claimInTransaction: (request: IdempotencyClaimRequest) => IdempotencyClaim;
  private lastPurge = 0;

  constructor(db: Database) {
    this.select = db.prepare('SELECT fingerprint, pet, expires_at, lease_expires_at FROM idempotency_keys WHERE scope = ? AND key = ?');
    this.upsert = db.prepare(
      `INSERT INTO idempotency_keys (scope, key, token, fingerprint, pet, expires_at, lease_expires_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET token = excluded.token, fingerprint = excluded.fingerprint, pet = NULL,
         expires_at = excluded.expires_at, lease_expires_at = excluded.lease_expires_at`,
    );
    this.removeInProgress = db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND token = ? AND pet IS NULL');
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
    const claim = db.transaction((request: IdempotencyClaimRequest): IdempotencyClaim => {
      const now = request.now.getTime();
      const found = this.select.get(request.scope, request.key);
      if (found !== undefined && found.expires_at > now) {
        if (found.pet !== null) return { kind: 'completed', fingerprint: found.fingerprint, pet: JSON.parse(found.pet) as Pet };
        if (found.lease_expires_at > now) return { kind: 'in-progress', fingerprint: found.fingerprint };
      }
      const token = randomUUID();
      this.upsert.run(
        request.scope,
        request.key,
        token,
        request.fingerprint,
        request.expiresAt.getTime(),
        request.leaseExpiresAt.getTime(),
      );
      if (now - this.lastPurge >= PURGE_INTERVAL_MS) {
        this.purge.run(now);
        this.lastPurge = now;
      }
      return { kind: 'claimed', token };
    });
    this.claimInTransaction = (request) => claim.immediate(request);
  }

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    return this.claimInTransaction(request);
  }

  async release({ scope, key }: IdempotencyRecordId, token: string): Promise<void> {
    this.removeInProgress.run(scope, key, token);
  }
}
