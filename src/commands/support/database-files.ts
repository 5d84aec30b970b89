// The files SQLite keeps a database in: the database, and beside it, while it is open, its -wal
// and -shm. A command that writes a file must never write one of them, whatever path names it
// (relative, through a link to it or to its folder, a hard link), so files are compared as the
// file system knows them, by device and inode; a file not there yet, by its folder and name.
import { realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** The name of each file beside the database's own, and what that file is. */
const DATABASE_FILES = [
  ['', 'the database'],
  ['-wal', 'the -wal file (write-ahead log) of the database'],
  ['-shm', 'the -shm file (shared-memory index) of the database'],
] as const;

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

const sameNode = (a: Stats | undefined, b: Stats | undefined): boolean =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/** Whether `a` and `b` name one file: the same file, or, where none is there yet, one name in the same folder. */
const isSameFile = (a: string, b: string): boolean =>
  sameNode(statOf(a), statOf(b)) || (basename(a) === basename(b) && sameNode(statOf(dirname(a)), statOf(dirname(b))));

/** What `path` is of the SQLite database at `database` ("the database", its -wal or -shm file), or undefined when it is none of them. */
export function databaseFileAt(path: string, database: string): string | undefined {
  // SQLite follows a link to the database, and keeps the -wal and -shm beside the file it leads to.
  let real = database;
  try {
    real = realpathSync(database);
  } catch {
    // Not there: its files are where it would be.
  }
  return DATABASE_FILES.find(([suffix]) => isSameFile(path, `${real}${suffix}`))?.[1];
}
