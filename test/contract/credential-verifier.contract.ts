// The CredentialVerifier contract: what every adapter of the port does, run against each of
// them. A verifier is opened knowing some credentials it made or was given; it accepts exactly
// those, each as one caller holding known scopes, and accepts nothing else.
import { expect } from 'chai';
import { type Caller, type CredentialVerifier, isScope } from '../../src/domain/index.js';

/** A verifier under test, the credentials it accepts (as many as asked), and how to release it. */
export interface OpenedVerifier {
  readonly verifier: CredentialVerifier;
  readonly credentials: readonly string[];
  readonly close: () => Promise<void>;
}

/** The contract, for a verifier that `open` makes accepting `count` distinct credentials. */
export function credentialVerifierContract(name: string, open: (count: number) => Promise<OpenedVerifier>): void {
  describe(`CredentialVerifier contract: ${name}`, () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });
    const opened = async (count: number) => {
      const it = await open(count);
      close = it.close;
      expect(it.credentials).to.have.length(count);
      return it;
    };
    const callerOf = async (verifier: CredentialVerifier, credential: string): Promise<Caller | undefined> => {
      const check = await verifier.verify(credential);
      return check.kind === 'accepted' ? check.caller : undefined;
    };

    it('accepts each credential it knows as one caller, the same at every call, another for every other credential', async () => {
      const { verifier, credentials } = await opened(3);
      const callers = await Promise.all(credentials.map((credential) => callerOf(verifier, credential)));
      for (const [i, caller] of callers.entries()) expect(caller?.id, `credential ${i}`).to.be.a('string').and.not.equal('');
      expect(new Set(callers.map((caller) => caller!.id)).size).to.equal(credentials.length);
      expect(await Promise.all(credentials.map((credential) => callerOf(verifier, credential)))).to.deep.equal(callers);
    });

    it('gives each caller scopes of this release only', async () => {
      const { verifier, credentials } = await opened(3);
      for (const credential of credentials) {
        const caller = await callerOf(verifier, credential);
        for (const scope of caller!.scopes) expect(isScope(scope), scope).to.equal(true);
      }
    });

    it('names a caller by an id that never holds its credential', async () => {
      const { verifier, credentials } = await opened(3);
      for (const credential of credentials) expect((await callerOf(verifier, credential))!.id).not.to.contain(credential.slice(0, 12));
    });

    it('accepts nothing else, however close to a credential it knows', async () => {
      const { verifier, credentials } = await opened(1);
      const [credential] = credentials as [string];
      const lastChanged = `${credential.slice(0, -1)}${credential.endsWith('A') ? 'B' : 'A'}`;
      for (const guess of [
        'another-credential-0123456789abcd',
        credential.slice(0, -1),
        `${credential}x`,
        `${credential} `,
        ` ${credential}`,
        credential.toUpperCase(),
        lastChanged,
        '',
      ]) {
        expect((await verifier.verify(guess)).kind, JSON.stringify(guess)).not.to.equal('accepted');
      }
    });

    it('accepts nothing when it knows no credential', async () => {
      const { verifier } = await opened(0);
      for (const guess of ['contract-key-one-0123456789', 'Contract+Key/Three==', '']) {
        expect((await verifier.verify(guess)).kind, guess).not.to.equal('accepted');
      }
    });
  });
}
