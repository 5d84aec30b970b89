import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../src/config/config.js';
import { describeDatabase } from '../src/config/database-config.js';
import { describeRedis } from '../src/config/redis-config.js';

// What an empty environment gives, written out rather than taken from CONFIG_DEFAULTS.
const DEFAULT_CONFIG = {
  host: '127.0.0.1',
  port: 3000,
  database: { kind: 'sqlite', path: './data/petstore.db' },
  apiKeys: [],
  logLevel: 'info',
  corsOrigins: [],
  rateLimit: undefined,
  authFailureLimit: undefined,
  redisUrl: undefined,
  redisKeyPrefix: 'petstore',
  metrics: 'open',
  workers: 1,
  events: { enabled: true, source: '/petstore', retentionHours: 24, natsUrl: undefined, natsStream: 'PETSTORE', webhookConcurrency: 20 },
  jwt: undefined,
  categories: 'open',
};

describe('configuration from the environment', () => {
  it('has defaults that need no set-up: SQLite under ./data, loopback, port 3000', () => {
    expect(loadConfig({})).to.deep.equal(E.right(DEFAULT_CONFIG));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      PETSTORE_DB: 'memory',
      PETSTORE_API_KEYS: ' key-one-0123456789 ,key-two-0123456789,',
      PETSTORE_LOG_LEVEL: 'warn',
      PETSTORE_CORS_ORIGINS: 'https://app.example, http://localhost:5173',
      PETSTORE_RATE_LIMIT: '100/60',
      PETSTORE_AUTH_FAILURE_LIMIT: '5/300',
      PETSTORE_REDIS_URL: 'rediss://:pw@cache.internal:6380/2',
      PETSTORE_REDIS_PREFIX: 'petstore-eu',
      PETSTORE_METRICS: 'key',
      PETSTORE_WORKERS: '1',
      PETSTORE_EVENTS: 'off',
      PETSTORE_EVENT_SOURCE: 'https://pets.example/store',
      PETSTORE_EVENT_RETENTION_HOURS: '72',
      PETSTORE_NATS_URL: 'nats://user:pw@nats.internal:4222',
      PETSTORE_NATS_STREAM: 'PETS_EU',
      PETSTORE_WEBHOOK_CONCURRENCY: '25',
      PETSTORE_JWT_ISSUER: 'https://login.example/realms/pets',
      PETSTORE_JWT_AUDIENCE: 'https://pets.example/api',
      PETSTORE_JWT_JWKS_URL: 'https://login.example/keys',
      PETSTORE_CATEGORIES: 'registered',
      UNRELATED: 'ignored',
    });
    expect(config).to.deep.equal(
      E.right({
        host: '0.0.0.0',
        port: 0,
        database: { kind: 'memory' },
        apiKeys: ['key-one-0123456789', 'key-two-0123456789'],
        logLevel: 'warn',
        corsOrigins: ['https://app.example', 'http://localhost:5173'],
        rateLimit: { requests: 100, windowSeconds: 60 },
        authFailureLimit: { requests: 5, windowSeconds: 300 },
        redisUrl: 'rediss://:pw@cache.internal:6380/2',
        redisKeyPrefix: 'petstore-eu',
        metrics: 'key',
        workers: 1,
        events: {
          enabled: false,
          source: 'https://pets.example/store',
          retentionHours: 72,
          natsUrl: 'nats://user:pw@nats.internal:4222',
          natsStream: 'PETS_EU',
          webhookConcurrency: 25,
        },
        jwt: { issuer: 'https://login.example/realms/pets', audience: 'https://pets.example/api', jwksUrl: 'https://login.example/keys' },
        categories: 'registered',
      }),
    );
  });

  it('takes :memory: and file paths as SQLite', () => {
    expect(loadConfig({ PETSTORE_DB: ':memory:' })).to.deep.equal(
      E.right({ ...DEFAULT_CONFIG, database: { kind: 'sqlite', path: ':memory:' } }),
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', PETSTORE_DB: '' })).to.deep.equal(loadConfig({}));
  });

  it('names every invalid variable, and never echoes an API key', () => {
    const result = loadConfig({
      PORT: '70000',
      HOST: 'bad host',
      PETSTORE_DB: 'mysql://db/pets',
      PETSTORE_PG_POOL_SIZE: '0',
      PETSTORE_API_KEYS: 'good-key-0123456789,secret',
      PETSTORE_LOG_LEVEL: 'loud',
      PETSTORE_CORS_ORIGINS: 'https://app.example/path',
      PETSTORE_RATE_LIMIT: 'lots',
      PETSTORE_AUTH_FAILURE_LIMIT: 'on',
      PETSTORE_REDIS_URL: 'memcached://cache:11211',
      PETSTORE_REDIS_PREFIX: 'pet store',
      PETSTORE_METRICS: 'public',
      PETSTORE_WORKERS: 'all',
      PETSTORE_CATEGORIES: 'closed',
    });
    expect(E.isLeft(result)).to.equal(true);
    const lines = E.isLeft(result) ? result.left : [];
    expect(lines.map((line) => line.split(' ')[0])).to.have.members([
      'PORT',
      'HOST',
      'PETSTORE_DB',
      'PETSTORE_PG_POOL_SIZE',
      'PETSTORE_API_KEYS',
      'PETSTORE_LOG_LEVEL',
      'PETSTORE_CORS_ORIGINS',
      'PETSTORE_RATE_LIMIT',
      'PETSTORE_AUTH_FAILURE_LIMIT',
      'PETSTORE_REDIS_URL',
      'PETSTORE_REDIS_PREFIX',
      'PETSTORE_METRICS',
      'PETSTORE_WORKERS',
      'PETSTORE_CATEGORIES',
    ]);
    expect(lines).to.include('PETSTORE_CATEGORIES must be open or registered');
    expect(lines.join('\n')).to.contain('key 2 must be at least 16 characters');
    expect(lines.join('\n')).not.to.contain('secret');
    expect(lines.join('\n')).not.to.contain('good-key');
  });

  it('takes PETSTORE_WORKERS from 1 to 64 with a SQLite file or PostgreSQL, and refuses it above 1 for data held in memory', () => {
    for (const [text, workers] of [
      ['1', 1],
      ['2', 2],
      ['64', 64],
    ] as const) {
      const config = loadConfig({ PETSTORE_WORKERS: text });
      expect(E.isRight(config) && config.right.workers, text).to.equal(workers);
    }
    const onPostgres = loadConfig({ PETSTORE_WORKERS: '4', PETSTORE_DB: 'postgres://db/pets' });
    expect(E.isRight(onPostgres) && onPostgres.right.workers).to.equal(4);
    for (const text of ['0', '65', '-1', '1.5', 'auto', ' 2']) {
      expect(loadConfig({ PETSTORE_WORKERS: text }), text).to.deep.equal(E.left(['PETSTORE_WORKERS must be an integer from 1 to 64']));
    }
    for (const db of ['memory', ':memory:']) {
      const result = loadConfig({ PETSTORE_WORKERS: '2', PETSTORE_DB: db });
      expect(E.isLeft(result) && result.left[0], db).to.match(/^PETSTORE_WORKERS must be 1 when PETSTORE_DB is memory/);
      expect(E.isRight(loadConfig({ PETSTORE_WORKERS: '1', PETSTORE_DB: db })), db).to.equal(true);
    }
  });

  it('refuses ports that are not whole numbers from 0 to 65535', () => {
    for (const port of ['-1', '1.5', 'abc', '65536', ' 80']) {
      expect(E.isLeft(loadConfig({ PORT: port })), port).to.equal(true);
    }
  });

  it('takes postgres:// and postgresql:// URLs as PostgreSQL, with a pool of 10 unless PETSTORE_PG_POOL_SIZE says otherwise', () => {
    for (const url of ['postgres://app:pw@db.internal:5432/pets', 'postgresql://db/pets?sslmode=require', 'POSTGRES://db/pets']) {
      const config = loadConfig({ PETSTORE_DB: url });
      expect(E.isRight(config) && config.right.database, url).to.deep.equal({ kind: 'postgres', url, poolSize: 10 });
    }
    const sized = loadConfig({ PETSTORE_DB: 'postgres://db/pets', PETSTORE_PG_POOL_SIZE: '25' });
    expect(E.isRight(sized) && sized.right.database).to.deep.equal({ kind: 'postgres', url: 'postgres://db/pets', poolSize: 25 });
  });

  it('refuses pool sizes that are not whole numbers from 1 to 1000, naming the variable', () => {
    for (const size of ['0', '1001', '-1', '2.5', 'ten', ' 10', '99999']) {
      const result = loadConfig({ PETSTORE_DB: 'postgres://db/pets', PETSTORE_PG_POOL_SIZE: size });
      expect(E.isLeft(result) && result.left, size).to.deep.equal(['PETSTORE_PG_POOL_SIZE must be an integer from 1 to 1000']);
    }
    for (const size of ['1', '1000']) expect(E.isRight(loadConfig({ PETSTORE_PG_POOL_SIZE: size })), size).to.equal(true);
  });

  it('refuses URLs of other schemes and postgres URLs it cannot parse, never echoing them', () => {
    for (const url of [
      'mysql://db/pets',
      'file:///tmp/pets.db',
      'http://db/pets',
      'postgres://app:s3cr#t@db/pets',
      'postgres://db:99999/pets',
    ]) {
      const result = loadConfig({ PETSTORE_DB: url });
      const lines = E.isLeft(result) ? result.left : [];
      expect(lines, url).to.have.length(1);
      expect(lines[0]).to.match(/^PETSTORE_DB /);
      expect(lines[0]).not.to.contain('s3cr');
      expect(lines[0]).not.to.contain('db');
    }
  });

  it('refuses an sslmode the driver does not know, which it would take as verify-full without a word', () => {
    for (const mode of ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify']) {
      expect(E.isRight(loadConfig({ PETSTORE_DB: `postgres://db/pets?sslmode=${mode}` })), mode).to.equal(true);
    }
    for (const mode of ['bogus', 'allow', 'REQUIRE', '']) {
      const result = loadConfig({ PETSTORE_DB: `postgres://app:s3cret@db/pets?sslmode=${mode}` });
      expect(E.isLeft(result) && result.left, mode).to.deep.equal([
        'PETSTORE_DB has an sslmode that is not one of disable, prefer, require, verify-ca, verify-full, no-verify',
      ]);
    }
  });

  it('describes a PostgreSQL database without its password', () => {
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://app:s3cret@db:5432/pets?sslmode=require', poolSize: 10 })).to.equal(
      'postgres postgres://app@db:5432/pets?sslmode=require (pool of 10)',
    );
    expect(
      describeDatabase({ kind: 'postgres', url: 'postgresql://app@db/pets?password=s3cret&options=-c%20x%3Dy', poolSize: 3 }),
    ).not.to.contain('s3cret');
    expect(describeDatabase({ kind: 'sqlite', path: './data/petstore.db' })).to.equal('sqlite ./data/petstore.db');
  });

  it('limits failed authentications per address by default exactly when requests are rate limited, unless it is off', () => {
    const authFailureLimitOf = (env: Record<string, string>) => {
      const config = loadConfig(env);
      return E.isRight(config) ? config.right.authFailureLimit : 'invalid';
    };
    expect(authFailureLimitOf({})).to.equal(undefined);
    expect(authFailureLimitOf({ PETSTORE_RATE_LIMIT: '100/60' })).to.deep.equal({ requests: 30, windowSeconds: 60 });
    expect(authFailureLimitOf({ PETSTORE_RATE_LIMIT: '100/60', PETSTORE_AUTH_FAILURE_LIMIT: 'off' })).to.equal(undefined);
    expect(authFailureLimitOf({ PETSTORE_AUTH_FAILURE_LIMIT: '10/60' })).to.deep.equal({ requests: 10, windowSeconds: 60 });
    for (const text of ['0/60', '10/0', '10', 'OFF', '10 / 60']) {
      expect(loadConfig({ PETSTORE_AUTH_FAILURE_LIMIT: text }), text).to.deep.equal(
        E.left(['PETSTORE_AUTH_FAILURE_LIMIT must be <requests>/<seconds>, for example 30/60, or off']),
      );
    }
  });

  it('takes redis:// and rediss:// URLs for Redis, never echoing one it refuses, and describes it without its password', () => {
    for (const url of ['redis://127.0.0.1:6379', 'REDIS://cache/3', 'rediss://user:pw@cache.internal:6380']) {
      const config = loadConfig({ PETSTORE_REDIS_URL: url });
      expect(E.isRight(config) && config.right.redisUrl, url).to.equal(url);
    }
    for (const url of ['http://cache:6379', 'cache:6379', 'redis://', 'redis://:s3cr#t@cache:6379', 'redis://cache:99999']) {
      const result = loadConfig({ PETSTORE_REDIS_URL: url });
      const lines = E.isLeft(result) ? result.left : [];
      expect(lines, url).to.have.length(1);
      expect(lines[0]).to.match(
        /^PETSTORE_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$|^PETSTORE_REDIS_URL is not a valid redis:\/\/ URL/,
      );
      expect(lines[0]).not.to.contain('s3cr').and.not.to.contain('cache');
    }
    for (const prefix of ['', ' ', 'a b', 'x'.repeat(65), 'pets*']) {
      const result = loadConfig({ PETSTORE_REDIS_PREFIX: prefix });
      expect(E.isRight(result) ? result.right.redisKeyPrefix : result.left, prefix).to.satisfy(
        (value: unknown) => value === 'petstore' || (Array.isArray(value) && /^PETSTORE_REDIS_PREFIX must be/.test(value[0])),
      );
    }
    expect(describeRedis('rediss://app:s3cret@cache:6380/2', 'petstore')).to.equal('redis rediss://app@cache:6380/2 (keys petstore:…)');
  });

  it('refuses a URL whose password holds an unencoded / ? or #, which would end the authority and be shown as a path', () => {
    for (const password of ['/s3cret', '2024/s3cret', '77?s3cret', '#s3cret']) {
      for (const [variable, url] of [
        ['PETSTORE_DB', `postgres://app:${password}@db:5432/pets`],
        ['PETSTORE_REDIS_URL', `redis://app:${password}@cache:6379/2`],
        ['PETSTORE_NATS_URL', `nats://app:${password}@nats:4222`],
      ] as const) {
        const refused = loadConfig({ [variable]: url });
        expect(E.isLeft(refused) && refused.left.join('\n'), url)
          .to.contain(`${variable} `)
          .and.contain('percent-encode');
        expect(JSON.stringify(refused), url).not.to.contain('s3cret');
      }
    }
    // A URL with one slash, or none, is not taken for a file name (created, and shown in full).
    for (const text of ['postgres:/app:/s3cret@db/pets', 'postgresql:app:s3cret@db/pets', 'postgres:s3cret']) {
      const refused = loadConfig({ PETSTORE_DB: text });
      expect(E.isLeft(refused) && refused.left.join('\n'), text).to.contain('PETSTORE_DB looks like a URL but is not one');
      expect(JSON.stringify(refused), text).not.to.contain('s3cret');
    }
    expect(E.isRight(loadConfig({ PETSTORE_DB: './a:b.db' })) && E.isRight(loadConfig({ PETSTORE_DB: ':memory:' }))).to.equal(true);
    // Percent-encoded, the same passwords are taken, and shown by no description.
    const encoded = loadConfig({ PETSTORE_DB: `postgres://app:${encodeURIComponent('77?/#s3cret')}@db:5432/pets` });
    expect(E.isRight(encoded) && describeDatabase(encoded.right.database)).to.equal('postgres postgres://app@db:5432/pets (pool of 10)');
  });

  it('refuses invalid events settings, naming each variable and never echoing a NATS URL', () => {
    const refused = loadConfig({
      PETSTORE_EVENTS: 'yes',
      PETSTORE_EVENT_SOURCE: 'has space',
      PETSTORE_EVENT_RETENTION_HOURS: '0',
      PETSTORE_NATS_URL: 'http://user:s3cret@nats:4222',
      PETSTORE_NATS_STREAM: 'bad.name',
      PETSTORE_WEBHOOK_CONCURRENCY: '101',
    });
    expect(E.isLeft(refused) && refused.left.map((line) => line.split(' ')[0])).to.deep.equal([
      'PETSTORE_EVENTS',
      'PETSTORE_EVENT_SOURCE',
      'PETSTORE_EVENT_RETENTION_HOURS',
      'PETSTORE_NATS_URL',
      'PETSTORE_NATS_STREAM',
      'PETSTORE_WEBHOOK_CONCURRENCY',
    ]);
    expect(JSON.stringify(refused)).not.to.contain('s3cret');
  });
});
