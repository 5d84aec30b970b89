// Serves docs/deprecations.md, the migration notes the deprecated operation links to
// (Link rel="deprecation"), so that the link works wherever the service runs. No key needed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { DEPRECATIONS_PATH } from './deprecation.js';

// From src/adapters/http (tests) or dist/adapters/http (server), the docs folder is three up.
const NOTES_FILE = fileURLToPath(new URL('../../../docs/deprecations.md', import.meta.url));

export function serveDeprecationNotes(): Middleware {
  const notes = readFileSync(NOTES_FILE, 'utf8');
  return async (ctx, next) => {
    if (ctx.path !== DEPRECATIONS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = notes;
  };
}
