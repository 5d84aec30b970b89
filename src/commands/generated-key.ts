// The API key a run generates when none is configured and none is stored, and how it is shown.
import type { Container } from 'inversify';
import { generateApiKey } from '../adapters/auth/api-key.js';
import type { Config } from '../config.js';
import { type ApiKeyStore, isActiveApiKey } from '../domain/index.js';
import { TOKENS } from '../tokens.js';

/**
 * With no key configured and none stored, a run accepts one generated key, so that a
 * newcomer can call the API at once; with keys made by `petstore keys create`, it does not.
 * Opens (and so migrates) the database. Answers that key, or undefined when keys exist.
 */
export async function generatedKeyFor(config: Config, container: Container): Promise<string | undefined> {
  const stored = await container.getAsync<ApiKeyStore>(TOKENS.ApiKeyStore);
  if (config.apiKeys.length > 0 || (await stored.list()).some(isActiveApiKey)) return undefined;
  return generateApiKey();
}

/** Prints a generated key once, on purpose, on standard output: it is valid for this run only. */
export function printGeneratedKey(key: string, baseUrl: string): void {
  process.stdout.write(
    `\nNo PETSTORE_API_KEYS set and no stored key: this run accepts one generated API key ` +
      `(set PETSTORE_API_KEYS, or create keys with "petstore keys create").\n\n` +
      `  ${key}\n\n  curl -H "Authorization: Bearer ${key}" ${baseUrl}/pets\n\n`,
  );
}
