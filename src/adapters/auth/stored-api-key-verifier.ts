// CredentialVerifier over the keys of an ApiKeyStore. The store is asked on every request, with
// no cache, so a key created by `petstore keys create` works at once and a revoked key is
// refused from the next request on, in every server instance on the database.
import { timingSafeEqual } from 'node:crypto';
import * as O from 'fp-ts/lib/Option.js';
import type { Logger } from 'pino';
import { type ApiKeyStore, type Clock, type CredentialCheck, type CredentialVerifier, hasExpired, scopesHeld } from '../../domain/index.js';
import { apiKeyDigest } from './api-key.js';
import { ApiKeyUseRecorder } from './api-key-use-recorder.js';

/** What a StoredApiKeyVerifier needs besides its store. */
export interface StoredApiKeyVerifierOptions {
  /** The time, by which a key has expired and its use is recorded; the system's when omitted. */
  readonly clock?: Clock;
  /** Where a failed write of a key's last use is told (level 40); nowhere when omitted. */
  readonly logger?: Pick<Logger, 'warn'>;
}

const SYSTEM_TIME: Clock = { now: () => new Date() };

/**
 * Accepts the active keys of `store`, each as the caller id it was stored with, holding the
 * scopes it was stored with; refuses an expired one, saying so; records each key's last use,
 * at most once a minute per key (ApiKeyUseRecorder).
 *
 * The key is looked up by its digest (an indexed equality in SQL). The time such a lookup
 * takes can only tell how the digest of a guess compares with stored digests, and a SHA-256
 * digest says nothing usable about the key it came from. The digest found is then compared
 * once more in constant time, so an adapter whose lookup were looser (a case-insensitive
 * collation, say) still accepts only the exact key.
 */
export class StoredApiKeyVerifier implements CredentialVerifier {
  private readonly clock: Clock;
  private readonly uses: ApiKeyUseRecorder;

  constructor(
    private readonly store: ApiKeyStore,
    { clock = SYSTEM_TIME, logger }: StoredApiKeyVerifierOptions = {},
  ) {
    this.clock = clock;
    this.uses = new ApiKeyUseRecorder(store, logger);
  }

  async verify(apiKey: string): Promise<CredentialCheck> {
    const digest = apiKeyDigest(apiKey);
    const found = await this.store.findActive(digest);
    if (O.isNone(found)) return { kind: 'unknown' };
    const stored = Buffer.from(found.value.digest, 'hex');
    const candidate = Buffer.from(digest, 'hex');
    if (stored.length !== candidate.length || !timingSafeEqual(stored, candidate)) return { kind: 'unknown' };
    const { record } = found.value;
    const now = this.clock.now();
    const { expiresAt } = record;
    if (expiresAt !== null && hasExpired(expiresAt, now))
      return { kind: 'refused', reason: `the API key expired at ${expiresAt.toISOString()}` };
    this.uses.used(record.id, record.callerId, now);
    return { kind: 'accepted', caller: { id: record.callerId, scopes: scopesHeld(record.scopes) } };
  }
}
