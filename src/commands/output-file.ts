// The file a data command writes (a backup, an export): refused before any work when it cannot
// be written there, and told as the target's fault, not the database's.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Why `file` cannot be written as a whole new file, or undefined when it can be tried. */
export function unwritableFile(file: string): string | undefined {
  const folder = dirname(file);
  const kindOf = (path: string) => {
    try {
      return statSync(path).isDirectory() ? 'folder' : 'file';
    } catch {
      return 'absent';
    }
  };
  if (kindOf(folder) !== 'folder') return `the folder ${folder} does not exist`;
  if (kindOf(file) === 'folder') return 'it is a folder';
  return undefined;
}
