// The file a data command writes (a backup, an export): refused before any work when it cannot
// be written there, and told as the target's fault, not the database's. The command writes
// `<file>.partial` and renames it onto `file`, so `file` must be a regular file or absent: a
// link, a pipe or a device would be replaced by the rename, not written through. Neither may be
// a file of the SQLite database the command reads, which it would destroy.
import { lstatSync, type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { databaseFileAt } from './database-files.js';
import { type DatabaseConfig, isInProcessMemory } from '../../config/database-config.js';

/** What is at `path`: a folder, a regular file, something else (a link, a pipe, a device, a socket), or nothing. */
function kindOf(path: string, stat: (path: string) => Stats): 'folder' | 'file' | 'other' | 'absent' {
  try {
    const found = stat(path);
    return found.isDirectory() ? 'folder' : found.isFile() ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}

/**
 * Why writing `file` would write a file of the SQLite `database` (named by PETSTORE_DB), or
 * undefined when it would not. Besides `file`, a command writes and removes `<file>.partial`,
 * and a backup that file's -wal and -shm.
 */
function databaseProblem(file: string, database: DatabaseConfig): string | undefined {
  if (database.kind !== 'sqlite' || isInProcessMemory(database)) return undefined;
  const destroys = 'which this would destroy: name another file';
  const itself = databaseFileAt(file, database.path);
  if (itself !== undefined) return `it is ${itself} PETSTORE_DB names, ${destroys}`;
  for (const working of [`${file}.partial`, `${file}.partial-wal`, `${file}.partial-shm`]) {
    const found = databaseFileAt(working, database.path);
    if (found !== undefined) return `the file written on the way, ${working}, is ${found} PETSTORE_DB names, ${destroys}`;
  }
  return undefined;
}

/** Why `file` cannot be written as a whole new file while `database` is read, or undefined when it can be tried. */
export function unwritableFile(file: string, database: DatabaseConfig): string | undefined {
  if (file === '') return 'the name is empty';
  const folder = dirname(file);
  const parent = kindOf(folder, statSync);
  if (parent === 'absent') return `the folder ${folder} does not exist`;
  if (parent !== 'folder') return `${folder} is not a folder`;
  // Before the kind: a link to the database is told as the database.
  const problem = databaseProblem(file, database);
  if (problem !== undefined) return problem;
  switch (kindOf(file, lstatSync)) {
    case 'folder':
      return 'it is a folder';
    case 'other':
      return 'it is not a regular file (a link, a pipe or a device), which the finished file would replace: name a regular file';
    default:
      return undefined;
  }
}
