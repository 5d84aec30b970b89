// The api_keys table as the SQL adapters read it: the same columns, with ids and times in the
// driver's own types (SQLite: numbers; PostgreSQL: int8 as text, timestamptz as Date).
import { type ApiKeyId, type ApiKeyLabel, type ApiKeyRecord, type ApiKeyScopes, canonicalScopes } from '../../domain/index.js';

/** A row of api_keys, every column. */
export interface ApiKeyRow<Id, Time> {
  id: Id;
  digest: string;
  caller_id: string;
  label: string;
  scopes: string | null;
  created_at: Time;
  expires_at: Time | null;
  revoked_at: Time | null;
  last_used_at: Time | null;
}

/** Every column of api_keys, in the order of {@link ApiKeyRow}. */
export const API_KEY_COLUMNS = 'id, digest, caller_id, label, scopes, created_at, expires_at, revoked_at, last_used_at';

/**
 * How both SQL schemas keep a key's scopes in one text column: NULL for every scope (the
 * keys stored before scopes existed, so those of later releases too), else the scopes
 * separated by one space, as OAuth writes them. Text, not a PostgreSQL array: the archive
 * writes a batch through unnest, which would flatten an array of arrays.
 */
export const scopesColumn = (scopes: ApiKeyScopes): string | null => (scopes === 'all' ? null : scopes.join(' '));

/** The scopes of a scopes column; a scope this release does not know is left out. */
export const scopesOfColumn = (column: string | null): ApiKeyScopes =>
  column === null ? 'all' : canonicalScopes(column.split(' ').filter((name) => name !== ''));

/** The record of a row, its id and times read by the driver's own conversions. */
export const apiKeyRecordOf = <Id, Time>(
  row: ApiKeyRow<Id, Time>,
  idOf: (id: Id) => number,
  timeOf: (time: Time) => Date,
): ApiKeyRecord => ({
  id: idOf(row.id) as ApiKeyId,
  label: row.label as ApiKeyLabel,
  callerId: row.caller_id,
  scopes: scopesOfColumn(row.scopes),
  createdAt: timeOf(row.created_at),
  expiresAt: row.expires_at === null ? null : timeOf(row.expires_at),
  revokedAt: row.revoked_at === null ? null : timeOf(row.revoked_at),
  lastUsedAt: row.last_used_at === null ? null : timeOf(row.last_used_at),
});
