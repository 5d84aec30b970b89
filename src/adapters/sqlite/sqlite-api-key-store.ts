// ApiKeyStore in the service's SQLite database (the api_keys table of migrations 3 and 9):
// every process on the file sees a key as soon as it is created or revoked.
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type { ApiKeyId, ApiKeyRecord, ApiKeyStore, NewApiKeyRecord, StoredApiKey } from '../../domain/index.js';
import { API_KEY_COLUMNS, type ApiKeyRow as SharedApiKeyRow, apiKeyRecordOf, scopesColumn } from '../shared/api-key-row.js';

type ApiKeyRow = SharedApiKeyRow<number, number>;

const toRecord = (row: ApiKeyRow): ApiKeyRecord =>
  apiKeyRecordOf(
    row,
    (id) => id,
    (time) => new Date(time),
  );

/** Stored API keys in a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly insert: Statement<[string, string, string, string | null, number, number | null], ApiKeyRow>;
  private readonly selectAll: Statement<[], ApiKeyRow>;
  private readonly selectActive: Statement<[string], ApiKeyRow>;
  private readonly setRevoked: Statement<[number, number], ApiKeyRow>;
  private readonly setLastUsed: Statement<[number, number, number]>;

  constructor(db: Database) {
    this.insert = db.prepare(
      `INSERT INTO api_keys (digest, caller_id, label, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`,
    );
    this.selectAll = db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY id`);
    this.selectActive = db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE digest = ? AND revoked_at IS NULL`);
    // One statement: a key revoked before keeps its first revocation time.
    this.setRevoked = db.prepare(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${API_KEY_COLUMNS}`);
    // One statement: the last use only moves forward, whichever process writes last.
    this.setLastUsed = db.prepare('UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, ?), ?) WHERE id = ?');
  }

  async create(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const row = this.insert.get(
      key.digest,
      key.callerId,
      key.label,
      scopesColumn(key.scopes),
      key.createdAt.getTime(),
      key.expiresAt?.getTime() ?? null,
    );
    if (row === undefined) throw new Error('INSERT … RETURNING gave no row');
    return toRecord(row);
  }

  async list(): Promise<readonly ApiKeyRecord[]> {
    return this.selectAll.all().map(toRecord);
  }

  async findActive(digest: string): Promise<O.Option<StoredApiKey>> {
    const row = this.selectActive.get(digest);
    return row === undefined ? O.none : O.some({ record: toRecord(row), digest: row.digest });
  }

  async revoke(id: ApiKeyId, at: Date): Promise<O.Option<ApiKeyRecord>> {
    const row = this.setRevoked.get(at.getTime(), id);
    return row === undefined ? O.none : O.some(toRecord(row));
  }

  async recordUse(id: ApiKeyId, at: Date): Promise<void> {
    this.setLastUsed.run(at.getTime(), at.getTime(), id);
  }
}
