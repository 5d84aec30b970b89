// The column types of the tables that SQLite and PostgreSQL share (shared/sql-tables.ts), in PostgreSQL.
import type { SqlColumnTypes } from '../shared/sql-tables.js';

export const POSTGRES_COLUMN_TYPES: SqlColumnTypes = {
  id: 'bigint GENERATED ALWAYS AS IDENTITY (MAXVALUE 9007199254740991) PRIMARY KEY',
  idReference: 'bigint',
  sequence: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  integer: 'integer',
  text: 'text',
  uuid: 'uuid',
  json: 'jsonb',
  time: 'timestamptz',
  tableOptions: '',
  keyedTableOptions: '',
};
