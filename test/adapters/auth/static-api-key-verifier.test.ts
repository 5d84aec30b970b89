import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { generateApiKey } from '../../../src/adapters/auth/api-key.js';
import { StaticApiKeyVerifier } from '../../../src/adapters/auth/static-api-key-verifier.js';
import { acceptedAs, UNKNOWN } from '../../support/credential-checks.js';
import { apiKeyProblem } from '../../../src/domain/index.js';

describe('StaticApiKeyVerifier', () => {
  const keys = ['first-key-0123456789', 'second-key-0123456789'];
  const verifier = new StaticApiKeyVerifier(keys);

  it('accepts every configured key and names its caller by a digest prefix, never by the key', async () => {
    const idOf = (key: string) => `key-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
    expect(await verifier.verify(keys[0]!)).to.deep.equal(acceptedAs(idOf(keys[0]!)));
    expect(await verifier.verify(keys[1]!)).to.deep.equal(acceptedAs(idOf(keys[1]!)));
    expect(await new StaticApiKeyVerifier([...keys].reverse()).verify(keys[0]!), 'independent of order').to.deep.equal(
      acceptedAs(idOf(keys[0]!)),
    );
  });

  it('refuses unknown keys, prefixes, extensions and case changes of a valid key', async () => {
    for (const candidate of ['', 'nope', keys[0]!.slice(0, -1), `${keys[0]}x`, keys[0]!.toUpperCase()]) {
      expect(await verifier.verify(candidate), candidate).to.deep.equal(UNKNOWN);
    }
  });

  it('refuses everything when no key is configured', async () => {
    expect(await new StaticApiKeyVerifier([]).verify(keys[0]!)).to.deep.equal(UNKNOWN);
  });
});

describe('API keys', () => {
  it('generates distinct keys that are themselves valid keys', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).not.to.equal(b);
    expect(apiKeyProblem(a)).to.equal(undefined);
    expect(a.length).to.be.at.least(43);
  });

  it('refuses keys that are short or outside the bearer token alphabet', () => {
    expect(apiKeyProblem('short')).to.match(/at least 16/);
    expect(apiKeyProblem('has space 0123456789')).to.match(/only letters/);
    expect(apiKeyProblem('comma,0123456789abcdef')).to.match(/only letters/);
    expect(apiKeyProblem('abcdefghijklmnop==')).to.equal(undefined);
  });
});
