// ApiKeyStore on PostgreSQL (the api_keys table of migrations 3 and 8), shared by every server instance
// on the database: a key created or revoked is seen by all of them on their next request.
import * as O from 'fp-ts/lib/Option.js';
import type { Pool, QueryConfig } from 'pg';
import type { ApiKeyId, ApiKeyRecord, ApiKeyStore, NewApiKeyRecord, StoredApiKey } from '../../domain/index.js';
import { queryRows } from './postgres-errors.js';
import { safeIntegerFromInt8 } from './postgres-pet-rows.js';
import { API_KEY_COLUMNS, type ApiKeyRow as SharedApiKeyRow, apiKeyRecordOf, scopesColumn } from '../shared/api-key-row.js';

type ApiKeyRow = SharedApiKeyRow<string, Date>; // int8 as pg returns it

const toRecord = (row: ApiKeyRow): ApiKeyRecord =>
  apiKeyRecordOf(
    row,
    (id) => safeIntegerFromInt8(id, 'api_keys.id'),
    (time) => time,
  );

/** Stored API keys in the database of a pool opened by openPostgresPool (which migrates it). */
export class PostgresApiKeyStore implements ApiKeyStore {
  constructor(private readonly pool: Pool) {}

  private rows(query: QueryConfig): Promise<ApiKeyRow[]> {
    return queryRows<ApiKeyRow>(this.pool, query);
  }

  async create(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const [row] = await this.rows({
      text: `INSERT INTO api_keys (digest, caller_id, label, scopes, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${API_KEY_COLUMNS}`,
      values: [key.digest, key.callerId, key.label, scopesColumn(key.scopes), key.createdAt, key.expiresAt],
    });
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return toRecord(row);
  }

  async list(): Promise<readonly ApiKeyRecord[]> {
    return (await this.rows({ text: `SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY id` })).map(toRecord);
  }

  // On every authenticated request with a key that is not configured: a named prepared statement.
  async findActive(digest: string): Promise<O.Option<StoredApiKey>> {
    const [row] = await this.rows({
      name: 'petstore_api_keys_active',
      text: `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE digest = $1 AND revoked_at IS NULL`,
      values: [digest],
    });
    return row === undefined ? O.none : O.some({ record: toRecord(row), digest: row.digest });
  }

  async revoke(id: ApiKeyId, at: Date): Promise<O.Option<ApiKeyRecord>> {
    const [row] = await this.rows({
      text: `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING ${API_KEY_COLUMNS}`,
      values: [id, at],
    });
    return row === undefined ? O.none : O.some(toRecord(row));
  }

  // At most once a minute per key and instance (StoredApiKeyVerifier): the last use only moves forward.
  async recordUse(id: ApiKeyId, at: Date): Promise<void> {
    await this.rows({
      name: 'petstore_api_keys_used',
      text: 'UPDATE api_keys SET last_used_at = greatest(last_used_at, $2) WHERE id = $1',
      values: [id, at],
    });
  }
}
