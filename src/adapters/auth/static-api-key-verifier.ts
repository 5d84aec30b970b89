// ApiKeyVerifier over a fixed list of keys (from PETSTORE_API_KEYS or the code that embeds us).
// Keys are kept only as SHA-256 digests and compared in constant time, every key every time,
// so neither the answer's timing nor an early exit tells how much of a guess was right.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyVerifier, Caller } from '../../domain/index.js';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export class StaticApiKeyVerifier implements ApiKeyVerifier {
  private readonly entries: ReadonlyArray<{ readonly digest: Buffer; readonly caller: Caller }>;

  /** `keys[i]` is known to logs and metrics as caller `api-key-(i+1)`: its position, never its value. */
  constructor(keys: readonly string[]) {
    this.entries = keys.map((key, index) => ({ digest: digest(key), caller: { id: `api-key-${index + 1}` } }));
  }

  async verify(apiKey: string): Promise<O.Option<Caller>> {
    const candidate = digest(apiKey);
    let match: Caller | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(candidate, entry.digest) && match === undefined) match = entry.caller;
    }
    return O.fromNullable(match);
  }
}
