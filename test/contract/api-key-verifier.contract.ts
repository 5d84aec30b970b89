// The ApiKeyVerifier contract: what every adapter of the port does, run against each of them.
// A verifier is made knowing some keys; it accepts exactly those, each as one caller.
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { ApiKeyVerifier, Caller } from '../../src/domain/index.js';

const KEYS = ['contract-key-one-0123456789', 'contract-key-two-0123456789', 'Contract+Key/Three=='];

/** The contract, for a verifier that `open` makes knowing `keys` (and `close` releases). */
export function apiKeyVerifierContract(
  name: string,
  open: (keys: readonly string[]) => Promise<{ verifier: ApiKeyVerifier; close: () => Promise<void> }>,
): void {
  describe(`ApiKeyVerifier contract: ${name}`, () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });
    const verifierOf = async (keys: readonly string[]) => {
      const opened = await open(keys);
      close = opened.close;
      return opened.verifier;
    };
    const callerOf = async (verifier: ApiKeyVerifier, key: string): Promise<Caller | undefined> =>
      O.toUndefined(await verifier.verify(key));

    it('accepts each key it knows as one caller, the same at every call, another for every other key', async () => {
      const verifier = await verifierOf(KEYS);
      const callers = await Promise.all(KEYS.map((key) => callerOf(verifier, key)));
      for (const [i, caller] of callers.entries()) expect(caller?.id, KEYS[i]).to.be.a('string').and.not.equal('');
      expect(new Set(callers.map((caller) => caller!.id)).size).to.equal(KEYS.length);
      expect(await Promise.all(KEYS.map((key) => callerOf(verifier, key)))).to.deep.equal(callers);
    });

    it('names a caller by an id that never holds its key', async () => {
      const verifier = await verifierOf(KEYS);
      for (const key of KEYS) expect((await callerOf(verifier, key))!.id).not.to.contain(key.slice(0, 12));
    });

    it('refuses every key it does not know, however close to one it does', async () => {
      const verifier = await verifierOf(KEYS);
      const [key] = KEYS as [string];
      for (const guess of [
        'another-key-0123456789abcd',
        key.slice(0, -1),
        `${key}x`,
        `${key} `,
        ` ${key}`,
        key.toUpperCase(),
        `${key.slice(0, -1)}8`,
        '',
      ]) {
        expect(await callerOf(verifier, guess), JSON.stringify(guess)).to.equal(undefined);
      }
    });

    it('refuses every key when it knows none', async () => {
      const verifier = await verifierOf([]);
      for (const key of [...KEYS, '']) expect(await callerOf(verifier, key), key).to.equal(undefined);
    });
  });
}
