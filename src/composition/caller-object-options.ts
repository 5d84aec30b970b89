// The options of createPetStore that are objects of the caller's: the adapters of ports, the
// logger, an ioredis client. Each is checked for what the service calls on it.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ApiKeyStore, CredentialVerifier, Clock, IdempotencyStore, PetRepository, ReadinessCheck } from '../domain/index.js';
import { exactObject } from '../domain/codec.js';
import { aFunction, implementing } from './implementation-codec.js';

/** A pino logger: the service makes child loggers and logs at every level. */
export const LoggerOption = implementing<Logger>('Logger', ['child', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'], 'a pino logger');

/** An ioredis client: the service watches its connection events. */
export const RedisClientOption = implementing<Redis>(
  'Redis',
  ['on', 'off', 'connect'],
  'a redis:// or rediss:// URL, or an ioredis client',
);

/** Your own adapters, each with every method of its port. */
export const AdaptersOption = exactObject(
  'Adapters',
  {},
  {
    petRepository: implementing<PetRepository>(
      'PetRepository',
      ['create', 'createCompleting', 'findById', 'list', 'findVersioned', 'update', 'remove'],
      'a PetRepository (create, createCompleting, findById, list, findVersioned, update, remove)',
    ),
    idempotencyStore: implementing<IdempotencyStore>('IdempotencyStore', ['claim', 'release'], 'an IdempotencyStore (claim, release)'),
    apiKeyStore: implementing<ApiKeyStore>(
      'ApiKeyStore',
      ['create', 'list', 'findActive', 'revoke'],
      'an ApiKeyStore (create, list, findActive, revoke)',
    ),
    credentialVerifier: implementing<CredentialVerifier>('CredentialVerifier', ['verify'], 'an CredentialVerifier (verify)'),
    clock: implementing<Clock>('Clock', ['now'], 'a Clock (now)'),
    readiness: aFunction<ReadinessCheck>('ReadinessCheck', 'a ReadinessCheck: a function that resolves when the service is ready'),
  },
);
