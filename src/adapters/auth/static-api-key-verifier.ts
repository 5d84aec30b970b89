// ApiKeyVerifier over a fixed list of keys (from PETSTORE_API_KEYS or the code that embeds us).
// Keys are kept only as SHA-256 digests and compared in constant time, every key every time,
// so neither the answer's timing nor an early exit tells how much of a guess was right.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyVerifier, Caller } from '../../domain/index.js';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export class StaticApiKeyVerifier implements ApiKeyVerifier {
  private readonly entries: ReadonlyArray<{ readonly digest: Buffer; readonly caller: Caller }>;

  /**
   * A key's caller id is `key-` and the first 16 hex digits of its SHA-256: stable whatever
   * the order of the keys, never the key itself, and computable by an operator who holds
   * the key (`printf %s "$KEY" | sha256sum | cut -c1-16`) to tell who called.
   */
  constructor(keys: readonly string[]) {
    this.entries = keys.map((key) => {
      const keyDigest = digest(key);
      return { digest: keyDigest, caller: { id: `key-${keyDigest.toString('hex').slice(0, 16)}` } };
    });
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
