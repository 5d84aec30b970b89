// IdempotencyStore on PostgreSQL: one record per (caller, key), shared by every server
// instance on the database. A claim is one atomic upsert: of many instances claiming one key
// at once, exactly one gets it.
import { randomUUID } from 'node:crypto';
import type { Pool, QueryConfig, QueryResultRow } from 'pg';
import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecordId, IdempotencyStore, Pet } from '../../domain/index.js';
import { petFromJsonb } from './jsonb-pet.js';
import { queryRows } from './postgres-errors.js';

/** Expired records are deleted at most this often per process. */
const PURGE_INTERVAL_MS = 60_000;
/** A claim that meets a record released at that very moment simply tries again, this often at most. */
const CLAIM_ATTEMPTS = 3;

/** Idempotency records in PostgreSQL, shared by every instance on the database. */
export class PostgresIdempotencyStore implements IdempotencyStore {
  private lastPurge = 0;

  constructor(private readonly pool: Pool) {}

  private rows<R extends QueryResultRow>(query: QueryConfig): Promise<R[]> {
    return queryRows<R>(this.pool, query);
  }

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    await this.purgeNowAndThen(request.now);
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt += 1) {
      const token = randomUUID();
      // Written when there is no record, or it has expired, or it is in progress past its lease.
      const claimed = await this.rows<{ token: string }>({
        name: 'petstore_idempotency_claim',
        text: `INSERT INTO idempotency_keys AS k (scope, key, token, fingerprint, pet, expires_at, lease_expires_at)
               VALUES ($1, $2, $3, $4, NULL, $5, $6)
               ON CONFLICT (scope, key) DO UPDATE
                 SET token = excluded.token, fingerprint = excluded.fingerprint, pet = NULL,
                     expires_at = excluded.expires_at, lease_expires_at = excluded.lease_expires_at
                 WHERE k.expires_at <= $7 OR (k.pet IS NULL AND k.lease_expires_at <= $7)
               RETURNING token`,
        values: [request.scope, request.key, token, request.fingerprint, request.expiresAt, request.leaseExpiresAt, request.now],
      });
      if (claimed.length === 1) return { kind: 'claimed', token };
      const [found] = await this.rows<{ fingerprint: string; pet: Pet | null }>({
        name: 'petstore_idempotency_find',
        text: 'SELECT fingerprint, pet FROM idempotency_keys WHERE scope = $1 AND key = $2',
        values: [request.scope, request.key],
      });
      if (found !== undefined) {
        return found.pet === null
          ? { kind: 'in-progress', fingerprint: found.fingerprint }
          : { kind: 'completed', fingerprint: found.fingerprint, pet: petFromJsonb(found.pet) };
      }
    }
    throw new Error(`idempotency key could not be claimed in ${CLAIM_ATTEMPTS} attempts`);
  }

  async release({ scope, key }: IdempotencyRecordId, token: string): Promise<void> {
    await this.rows({
      name: 'petstore_idempotency_release',
      text: 'DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND token = $3 AND pet IS NULL',
      values: [scope, key, token],
    });
  }

  private async purgeNowAndThen(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    await this.rows({ name: 'petstore_idempotency_purge', text: 'DELETE FROM idempotency_keys WHERE expires_at <= $1', values: [now] });
  }
}
