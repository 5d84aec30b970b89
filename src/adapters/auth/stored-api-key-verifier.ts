// CredentialVerifier over the keys of an ApiKeyStore. The store is asked on every request, with
// no cache, so a key created by `petstore keys create` works at once and a revoked key is
// refused from the next request on, in every server instance on the database.
import { timingSafeEqual } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import { ALL_SCOPES, type ApiKeyStore, type CredentialCheck, type CredentialVerifier } from '../../domain/index.js';
import { apiKeyDigest } from './api-key.js';

/**
 * Accepts the active keys of `store`, each as the caller id it was stored with.
 *
 * The key is looked up by its digest (an indexed equality in SQL). The time such a lookup
 * takes can only tell how the digest of a guess compares with stored digests, and a SHA-256
 * digest says nothing usable about the key it came from. The digest found is then compared
 * once more in constant time, so an adapter whose lookup were looser (a case-insensitive
 * collation, say) still accepts only the exact key.
 */
export class StoredApiKeyVerifier implements CredentialVerifier {
  constructor(private readonly store: ApiKeyStore) {}

  async verify(apiKey: string): Promise<CredentialCheck> {
    const digest = apiKeyDigest(apiKey);
    const found = await this.store.findActive(digest);
    if (O.isNone(found)) return { kind: 'unknown' };
    const stored = Buffer.from(found.value.digest, 'hex');
    const candidate = Buffer.from(digest, 'hex');
    if (stored.length !== candidate.length || !timingSafeEqual(stored, candidate)) return { kind: 'unknown' };
    return { kind: 'accepted', caller: { id: found.value.record.callerId, scopes: ALL_SCOPES } };
  }
}
