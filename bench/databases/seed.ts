// Seeds a SQLite file with N pets through the project's own openSqliteDatabase (from dist/),
// so the schema, indexes and settings are exactly the server's.
import { copyFileSync } from 'node:fs';

type OpenSqliteDatabase = typeof import('../../src/adapters/sqlite/open-sqlite-database.js').openSqliteDatabase;

const ROOT = new URL('../../', import.meta.url);
/** The compiled openSqliteDatabase of the project built in `root` (this checkout by default). */
const compiledOpener = (root: URL) => new URL('dist/adapters/sqlite/open-sqlite-database.js', root);
const STATUSES = ['available', 'pending', 'sold'] as const;

/** The status pet `id` is seeded with: the statuses take turns (postgres-databases.ts seeds PostgreSQL alike). */
export const seededStatus = (id: number): (typeof STATUSES)[number] => STATUSES[id % STATUSES.length]!;

const NAMES = ['Rex', 'Tom', 'Felix', 'Bella', 'Luna', 'Max', 'Milo', 'Coco', 'Kiwi', 'Nala'] as const;

const projectOpener = async (root = ROOT): Promise<OpenSqliteDatabase> =>
  ((await import(compiledOpener(root).href)) as { openSqliteDatabase: OpenSqliteDatabase }).openSqliteDatabase;

/**
 * Seeds `path` (a new file) with pets 1..count, statuses taking turns; returns the seconds it
 * took. Through the build in `root` (another checkout's, with --against): its schema, which
 * this checkout's server then upgrades in place.
 */
export async function seedPets(path: string, count: number, root = ROOT): Promise<number> {
  const openSqliteDatabase = await projectOpener(root);
  const started = performance.now();
  const db = openSqliteDatabase(path);
  try {
    const existing = db.prepare('SELECT count(*) AS n FROM pets').get() as { n: number };
    if (existing.n !== 0) throw new Error(`${path} already holds ${existing.n} pets`);
    const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 1; i <= count; i++) insert.run(`${NAMES[i % NAMES.length]} ${i}`, (i % 50) + 1, seededStatus(i));
    })();
    const { max } = db.prepare('SELECT max(id) AS max FROM pets').get() as { max: number };
    if (max !== count) throw new Error(`seeded ids end at ${max}, not ${count}`);
    // Everything into the main file, so that a plain copy of it is the whole database.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return (performance.now() - started) / 1000;
}

const SYNCHRONOUS = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

/** SQLite's `synchronous` setting (OFF, NORMAL, FULL, EXTRA) on a connection the project's openSqliteDatabase opens to `path`. */
export async function projectSynchronous(path: string): Promise<string> {
  const db = (await projectOpener())(path);
  try {
    return SYNCHRONOUS[db.pragma('synchronous', { simple: true }) as number] ?? 'unknown';
  } finally {
    db.close();
  }
}

/** A second, independent database with the same pets (each server writes only to its own). */
export const copyDatabase = (from: string, to: string): void => copyFileSync(from, to);
