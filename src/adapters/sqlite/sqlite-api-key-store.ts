// ApiKeyStore in the service's SQLite database (migration 3, the api_keys table): every
// process on the file sees a key as soon as it is created or revoked.
import * as O from 'fp-ts/lib/Option.js';
import type { Database, Statement } from 'better-sqlite3';
import type { ApiKeyId, ApiKeyRecord, ApiKeyStore, NewApiKeyRecord, StoredApiKey } from '../../domain/index.js';
import { API_KEY_COLUMNS, type ApiKeyRow as SharedApiKeyRow, apiKeyRecordOf } from '../shared/api-key-row.js';

type ApiKeyRow = SharedApiKeyRow<number, number>;

const toRecord = (row: ApiKeyRow): ApiKeyRecord =>
  apiKeyRecordOf(
    row,
    (id) => id,
    (time) => new Date(time),
  );

/** Stored API keys in a SQLite database opened by openSqliteDatabase (which migrates it). */
export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly insert: Statement<[string, string, string, number], ApiKeyRow>;
  private readonly selectAll: Statement<[], ApiKeyRow>;
  private readonly selectActive: Statement<[string], ApiKeyRow>;
  private readonly setRevoked: Statement<[number, number], ApiKeyRow>;

  constructor(db: Database) {
    this.insert = db.prepare(
      `INSERT INTO api_keys (digest, caller_id, label, created_at) VALUES (?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`,
    );
    this.selectAll = db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY id`);
    this.selectActive = db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE digest = ? AND revoked_at IS NULL`);
    // One statement: a key revoked before keeps its first revocation time.
    this.setRevoked = db.prepare(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${API_KEY_COLUMNS}`);
  }

  async create(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const row = this.insert.get(key.digest, key.callerId, key.label, key.createdAt.getTime());
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
}
