import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../src/config.js';

describe('configuration from the environment', () => {
  it('has defaults that need no set-up: SQLite under ./data, loopback, port 3000', () => {
    expect(loadConfig({})).to.deep.equal(
      E.right({
        host: '127.0.0.1',
        port: 3000,
        database: { kind: 'sqlite', path: './data/petstore.db' },
        apiKeys: [],
        logLevel: 'info',
        corsOrigins: [],
        rateLimit: undefined,
        metrics: 'open',
      }),
    );
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
      PETSTORE_METRICS: 'key',
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
        metrics: 'key',
      }),
    );
  });

  it('takes :memory: and file paths as SQLite', () => {
    expect(E.isRight(loadConfig({ PETSTORE_DB: ':memory:' })) && loadConfig({ PETSTORE_DB: ':memory:' })).to.deep.equal(
      E.right({
        host: '127.0.0.1',
        port: 3000,
        database: { kind: 'sqlite', path: ':memory:' },
        apiKeys: [],
        logLevel: 'info',
        corsOrigins: [],
        rateLimit: undefined,
        metrics: 'open',
      }),
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', PETSTORE_DB: '' })).to.deep.equal(loadConfig({}));
  });

  it('names every invalid variable, and never echoes an API key', () => {
    const result = loadConfig({
      PORT: '70000',
      HOST: 'bad host',
      PETSTORE_DB: 'postgres://db/pets',
      PETSTORE_API_KEYS: 'good-key-0123456789,secret',
      PETSTORE_LOG_LEVEL: 'loud',
      PETSTORE_CORS_ORIGINS: 'https://app.example/path',
      PETSTORE_RATE_LIMIT: 'lots',
      PETSTORE_METRICS: 'public',
    });
    expect(E.isLeft(result)).to.equal(true);
    const lines = E.isLeft(result) ? result.left : [];
    expect(lines.map((line) => line.split(' ')[0])).to.have.members([
      'PORT',
      'HOST',
      'PETSTORE_DB',
      'PETSTORE_API_KEYS',
      'PETSTORE_LOG_LEVEL',
      'PETSTORE_CORS_ORIGINS',
      'PETSTORE_RATE_LIMIT',
      'PETSTORE_METRICS',
    ]);
    expect(lines.join('\n')).to.contain('key 2 must be at least 16 characters');
    expect(lines.join('\n')).not.to.contain('secret');
    expect(lines.join('\n')).not.to.contain('good-key');
  });

  it('refuses ports that are not whole numbers from 0 to 65535', () => {
    for (const port of ['-1', '1.5', 'abc', '65536', ' 80']) {
      expect(E.isLeft(loadConfig({ PORT: port })), port).to.equal(true);
    }
  });
});
