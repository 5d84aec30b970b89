// Files the service ships beside its code (docs/), found from this module's own location:
// src/adapters/http/handlers under tsx, dist/adapters/http/handlers when compiled; the package root is four up.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const packageFile = (relativePath: string): string => fileURLToPath(new URL(`../../../../${relativePath}`, import.meta.url));

export const readPackageFile = (relativePath: string): string => readFileSync(packageFile(relativePath), 'utf8');
