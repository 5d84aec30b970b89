// The file a data command writes (a backup, an export): refused before any work when it cannot
// be written there, and told as the target's fault, not the database's. The command writes
// `<file>.partial` and renames it onto `file`, so `file` must be a regular file or absent: a
// link, a pipe or a device would be replaced by the rename, not written through.
import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** What is at `path`: a folder, a regular file, something else (a link, a pipe, a device, a socket), or nothing. */
function kindOf(path: string, stat: typeof statSync | typeof lstatSync): 'folder' | 'file' | 'other' | 'absent' {
  try {
    const found = stat(path);
    return found.isDirectory() ? 'folder' : found.isFile() ? 'file' : 'other';
  } catch {
    return 'absent';
  }
}

/** Why `file` cannot be written as a whole new file, or undefined when it can be tried. */
export function unwritableFile(file: string): string | undefined {
  if (file === '') return 'the name is empty';
  const folder = dirname(file);
  const parent = kindOf(folder, statSync);
  if (parent === 'absent') return `the folder ${folder} does not exist`;
  if (parent !== 'folder') return `${folder} is not a folder`;
  switch (kindOf(file, lstatSync)) {
    case 'folder':
      return 'it is a folder';
    case 'other':
      return 'it is not a regular file (a link, a pipe or a device), which the finished file would replace: name a regular file';
    default:
      return undefined;
  }
}
