import type { Database } from 'better-sqlite3';
import type { ReadinessCheck } from '../../domain/index.js';

/** Readiness of a SQLite database: it answers a query (a closed or broken handle throws). */
export const sqliteReadiness = (db: Database): ReadinessCheck => {
  const probe = db.prepare('SELECT 1');
  return async () => {
    probe.get();
  };
};
