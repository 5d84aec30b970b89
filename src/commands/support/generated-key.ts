// How the API key generated for a run (when none is configured and none is stored; see
// ContainerOptions.generateKeyWhenNone) is shown to the operator.

/**
 * Prints a generated key once, on purpose, on standard output: it is valid for this run only.
 * Nobody may be reading any more (`npm start | head -1`): the message is then lost, and the
 * failed write, an 'error' event on the stream, must not end the server that is serving.
 */
export function printGeneratedKey(key: string, baseUrl: string): void {
  process.stdout.once('error', () => undefined);
  process.stdout.write(
    `\nNo PETSTORE_API_KEYS set and no stored key: this run accepts one generated API key ` +
      `(set PETSTORE_API_KEYS, or create keys with "petstore keys create").\n\n` +
      `  ${key}\n\n  curl -H "Authorization: Bearer ${key}" ${baseUrl}/pets\n\n`,
  );
}
