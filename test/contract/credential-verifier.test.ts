// The CredentialVerifier contract, run against every adapter of the port: the configured keys,
// the stored keys on every storage, the two together as the service joins them, and the JWT
// access tokens of a real issuer (an HTTP server of the test's own, real keys and tokens).
import * as E from 'fp-ts/lib/Either.js';
import { apiKeyDigest } from '../../src/adapters/auth/api-key.js';
import { anyCredentialVerifier } from '../../src/adapters/auth/any-credential-verifier.js';
import { StaticApiKeyVerifier } from '../../src/adapters/auth/static-api-key-verifier.js';
import { StoredApiKeyVerifier } from '../../src/adapters/auth/stored-api-key-verifier.js';
import { JwtCredentialVerifier } from '../../src/adapters/jwt/jwt-credential-verifier.js';
import { MemoryApiKeyStore } from '../../src/adapters/memory/memory-api-key-store.js';
import { PostgresApiKeyStore } from '../../src/adapters/postgres/postgres-api-key-store.js';
import { SqliteApiKeyStore } from '../../src/adapters/sqlite/sqlite-api-key-store.js';
import { ApiKeyLabel, type ApiKeyStore, callerIdOf } from '../../src/domain/index.js';
import { forEveryStorage } from '../support/every-storage.js';
import { startTestIssuer, TEST_AUDIENCE } from '../support/test-issuer.js';
import { credentialVerifierContract } from './credential-verifier.contract.js';

const decodedLabel = ApiKeyLabel.decode('contract');
if (E.isLeft(decodedLabel)) throw new Error('the label is valid');
const LABEL = decodedLabel.right;

/** `count` distinct keys, of the shapes the bearer syntax allows. */
const keys = (count: number): string[] =>
  ['contract-key-one-0123456789', 'contract-key-two-0123456789', 'Contract+Key/Three=='].slice(0, count);

/** `store` holding `keys` as the service stores them: their digests, under the caller id of each. */
async function storing(store: ApiKeyStore, keys: readonly string[]): Promise<ApiKeyStore> {
  for (const key of keys) {
    const digest = apiKeyDigest(key);
    await store.create({
      digest,
      callerId: callerIdOf(digest),
      label: LABEL,
      scopes: 'all',
      createdAt: new Date('2030-01-01T00:00:00Z'),
      expiresAt: null,
    });
  }
  return store;
}

const released = () => Promise.resolve();

credentialVerifierContract('configured keys (StaticApiKeyVerifier)', (count) =>
  Promise.resolve({ verifier: new StaticApiKeyVerifier(keys(count)), credentials: keys(count), close: released }),
);

credentialVerifierContract('configured and stored keys together (anyCredentialVerifier)', async (count) => ({
  verifier: anyCredentialVerifier(
    new StaticApiKeyVerifier(keys(count).slice(0, 1)),
    new StoredApiKeyVerifier(await storing(new MemoryApiKeyStore(), keys(count).slice(1))),
  ),
  credentials: keys(count),
  close: released,
}));

credentialVerifierContract('JWT access tokens (JwtCredentialVerifier)', async (count) => {
  const issuer = await startTestIssuer();
  const verifier = new JwtCredentialVerifier({ issuer: issuer.issuer, audience: TEST_AUDIENCE }, { now: () => new Date() });
  const credentials = await Promise.all(Array.from({ length: count }, (_, i) => issuer.sign({ sub: `subject-${i}` })));
  return { verifier, credentials, close: () => issuer.close() };
});

credentialVerifierContract('configured keys and JWT access tokens together (anyCredentialVerifier)', async (count) => {
  const issuer = await startTestIssuer();
  const tokens = new JwtCredentialVerifier({ issuer: issuer.issuer, audience: TEST_AUDIENCE }, { now: () => new Date() });
  const token = count === 0 ? [] : [await issuer.sign()];
  const configured = keys(Math.max(0, count - 1));
  return {
    verifier: anyCredentialVerifier(new StaticApiKeyVerifier(configured), tokens),
    credentials: [...token, ...configured],
    close: () => issuer.close(),
  };
});

forEveryStorage<ApiKeyStore>(
  {
    memory: () => new MemoryApiKeyStore(),
    sqlite: (db) => new SqliteApiKeyStore(db),
    postgres: (pool) => new PostgresApiKeyStore(pool),
  },
  (name, open) =>
    credentialVerifierContract(`stored keys (StoredApiKeyVerifier) on ${name}`, async (count) => {
      const { adapter, close } = await open();
      return { verifier: new StoredApiKeyVerifier(await storing(adapter, keys(count))), credentials: keys(count), close };
    }),
);
