// CredentialVerifier over a fixed list of API keys (from PETSTORE_API_KEYS or the code that
// embeds us). Keys are kept only as SHA-256 digests and compared in constant time, every key
// every time, so neither the answer's timing nor an early exit tells how much of a guess was right.
import { timingSafeEqual } from 'node:crypto';
import { ALL_SCOPES, type Caller, type CredentialCheck, type CredentialVerifier, callerIdOf } from '../../domain/index.js';
import { apiKeyDigest, apiKeyDigestBytes } from './api-key.js';

/**
 * Accepts the keys it is given, each as the caller `key-<first 16 hex digits of its SHA-256>`
 * holding every scope, as configured keys did before scopes existed.
 */
export class StaticApiKeyVerifier implements CredentialVerifier {
  private readonly entries: ReadonlyArray<{ readonly digest: Buffer; readonly caller: Caller }>;

  /** @param keys the accepted keys; with none, every key is refused. */
  constructor(keys: readonly string[]) {
    this.entries = keys.map((key) => {
      const digest = apiKeyDigest(key);
      return { digest: Buffer.from(digest, 'hex'), caller: { id: callerIdOf(digest), scopes: ALL_SCOPES } };
    });
  }

  verify(apiKey: string): Promise<CredentialCheck> {
    const candidate = apiKeyDigestBytes(apiKey);
    let match: Caller | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(candidate, entry.digest) && match === undefined) match = entry.caller;
    }
    return Promise.resolve(match === undefined ? { kind: 'unknown' } : { kind: 'accepted', caller: match });
  }
}
