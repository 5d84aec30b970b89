// The api_keys table as the SQL adapters read it: the same columns, with ids and times in the
// driver's own types (SQLite: numbers; PostgreSQL: int8 as text, timestamptz as Date).
import type { ApiKeyId, ApiKeyLabel, ApiKeyRecord } from '../../domain/index.js';

/** A row of api_keys, every column. */
export interface ApiKeyRow<Id, Time> {
  id: Id;
  digest: string;
  caller_id: string;
  label: string;
  created_at: Time;
  revoked_at: Time | null;
}

/** Every column of api_keys, in the order of {@link ApiKeyRow}. */
export const API_KEY_COLUMNS = 'id, digest, caller_id, label, created_at, revoked_at';

/** The record of a row, its id and times read by the driver's own conversions. */
export const apiKeyRecordOf = <Id, Time>(
  row: ApiKeyRow<Id, Time>,
  idOf: (id: Id) => number,
  timeOf: (time: Time) => Date,
): ApiKeyRecord => ({
  id: idOf(row.id) as ApiKeyId,
  label: row.label as ApiKeyLabel,
  callerId: row.caller_id,
  createdAt: timeOf(row.created_at),
  revokedAt: row.revoked_at === null ? null : timeOf(row.revoked_at),
});
