// The JWT adapter against a real issuer (an HTTP server of test/support/test-issuer.ts) and
// real signed tokens: every outcome of the port, jose unstubbed.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { JwtCredentialVerifier } from '../../../src/adapters/jwt/jwt-credential-verifier.js';
import { JWT_TIMINGS, type JwtTimings } from '../../../src/adapters/jwt/jwt-settings.js';
import type { Clock, CredentialCheck } from '../../../src/domain/index.js';
import { REFUSED_TOKENS } from '../../support/refused-tokens.js';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer } from '../../support/test-issuer.js';

const NO_COOLDOWN: JwtTimings = { ...JWT_TIMINGS, keyRefetchCooldownMs: 0, discoveryRetryMs: 0, fetchTimeoutMs: 500 };
const systemTime: Clock = { now: () => new Date() };
const seconds = () => Math.floor(Date.now() / 1000);

describe('JwtCredentialVerifier', () => {
  let idp: TestIssuer;
  beforeEach(async () => {
    idp = await startTestIssuer();
  });
  afterEach(() => idp.close());

  const verifierOf = (timings: JwtTimings = NO_COOLDOWN, clock: Clock = systemTime, jwksUrl?: string) =>
    new JwtCredentialVerifier(
      { issuer: idp.issuer, audience: TEST_AUDIENCE, ...(jwksUrl === undefined ? {} : { jwksUrl }) },
      clock,
      timings,
    );
  const reasonOf = (check: CredentialCheck) =>
    check.kind === 'refused' || check.kind === 'unavailable' ? `${check.kind}: ${check.reason}` : check.kind;

  describe('accepts', () => {
    it('a token signed with RS256, ES256 or EdDSA, as a caller named from iss and sub, never the token', async () => {
      const verifier = verifierOf();
      const expected = `jwt-${createHash('sha256').update(`${idp.issuer}\u0000alice`).digest('hex').slice(0, 16)}`;
      for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
        const kid = await idp.addKey(alg);
        const token = await idp.sign({}, { kid });
        const check = await verifier.verify(token);
        expect(check, alg).to.deep.equal({ kind: 'accepted', caller: { id: expected, scopes: new Set(['pets:read', 'pets:write']) } });
      }
    });

    it('the same caller for every token of a subject, another for another subject', async () => {
      const verifier = verifierOf();
      const idOf = async (sub: string, jti: string) => {
        const check = await verifier.verify(await idp.sign({ sub, jti }));
        return check.kind === 'accepted' ? check.caller.id : check.kind;
      };
      expect(await idOf('alice', '1')).to.equal(await idOf('alice', '2'));
      expect(await idOf('alice', '3')).not.to.equal(await idOf('bob', '4'));
      expect((await idOf('x'.repeat(5000), '5')).length).to.equal('jwt-'.length + 16);
    });

    it('the scopes of scope (space-separated) or scp (array or string), leaving out names it does not know', async () => {
      const verifier = verifierOf();
      const scopesOf = async (claims: Record<string, unknown>) => {
        const check = await verifier.verify(await idp.sign({ scope: undefined, ...claims }));
        return check.kind === 'accepted' ? [...check.caller.scopes].sort() : check.kind;
      };
      expect(await scopesOf({ scope: 'pets:read' })).to.deep.equal(['pets:read']);
      expect(await scopesOf({ scope: 'openid pets:write profile' })).to.deep.equal(['pets:write']);
      expect(await scopesOf({ scp: ['pets:read', 'email', 7] })).to.deep.equal(['pets:read']);
      expect(await scopesOf({ scp: 'pets:write pets:read' })).to.deep.equal(['pets:read', 'pets:write']);
      expect(await scopesOf({})).to.deep.equal([]);
    });

    it('typ at+jwt, application/at+jwt, JWT or none; refuses another typ', async () => {
      const verifier = verifierOf();
      for (const typ of ['at+jwt', 'application/at+jwt', 'JWT', null]) {
        expect((await verifier.verify(await idp.sign({}, { typ }))).kind, String(typ)).to.equal('accepted');
      }
      expect(reasonOf(await verifier.verify(await idp.sign({}, { typ: 'dpop+jwt' })))).to.equal('refused: not an access token');
    });

    it('a token within the clock skew of its exp or nbf', async () => {
      const verifier = verifierOf();
      expect((await verifier.verify(await idp.sign({ exp: seconds() - 10 }))).kind).to.equal('accepted');
      expect((await verifier.verify(await idp.sign({ nbf: seconds() + 10 }))).kind).to.equal('accepted');
    });
  });

  it('answers unknown for what is not a JWT, so that API keys are asked next', async () => {
    const verifier = verifierOf();
    for (const credential of ['test-key-0123456789abcdef', 'abc.def.ghi', 'a.b', '', `${await idp.sign()}.extra`]) {
      expect(await verifier.verify(credential), credential).to.deep.equal({ kind: 'unknown' });
    }
    expect(idp.fetches, 'no key was fetched for them').to.deep.equal({ discovery: 0, jwks: 0 });
  });

  describe('refuses, with a short reason', () => {
    for (const [what, tokenOf, reason] of REFUSED_TOKENS) {
      it(what, async () => {
        expect(reasonOf(await verifierOf().verify(await tokenOf(idp)))).to.equal(`refused: ${reason}`);
      });
    }
  });

  describe('answers unavailable, never refused, when the keys cannot be had', () => {
    for (const behaviour of ['erroring', 'hanging'] as const) {
      it(`with the issuer ${behaviour}, and accepts once it is back`, async () => {
        const verifier = verifierOf();
        const token = await idp.sign();
        idp.behaviour = behaviour;
        const check = await verifier.verify(token);
        expect(check.kind).to.equal('unavailable');
        idp.behaviour = 'up';
        expect((await verifier.verify(token)).kind).to.equal('accepted');
      });
    }

    it('with the JWKS unreachable, discovery skipped by a configured JWKS URL', async () => {
      const token = await idp.sign();
      await idp.close();
      expect(reasonOf(await verifierOf(NO_COOLDOWN, systemTime, idp.jwksUrl).verify(token))).to.equal(
        'unavailable: the key set is unreachable',
      );
      idp = await startTestIssuer();
    });

    it('with an unknown kid while the JWKS is down, after it was fetched', async () => {
      const verifier = verifierOf();
      expect((await verifier.verify(await idp.sign())).kind).to.equal('accepted');
      const kid = await idp.addKey('ES256');
      idp.behaviour = 'erroring';
      expect((await verifier.verify(await idp.sign({}, { kid }))).kind).to.equal('unavailable');
    });
  });

  describe('keys', () => {
    it('fetches them again for a kid it lacks: a rotated key is accepted', async () => {
      const verifier = verifierOf();
      expect((await verifier.verify(await idp.sign())).kind).to.equal('accepted');
      const kid = await idp.addKey('ES256');
      expect((await verifier.verify(await idp.sign({}, { kid }))).kind).to.equal('accepted');
      expect(idp.fetches).to.deep.equal({ discovery: 1, jwks: 2 });
    });

    it('does not fetch them again within the cooldown: an unknown kid is refused meanwhile', async () => {
      const verifier = verifierOf({ ...NO_COOLDOWN, keyRefetchCooldownMs: 60_000 });
      expect((await verifier.verify(await idp.sign())).kind).to.equal('accepted');
      const kid = await idp.addKey('ES256');
      for (let i = 0; i < 3; i++)
        expect(reasonOf(await verifier.verify(await idp.sign({ jti: String(i) }, { kid })))).to.equal('refused: unknown key');
      expect(idp.fetches.jwks).to.equal(1);
    });

    it('keysFetched fetches them once, and answers at once after', async () => {
      const verifier = verifierOf();
      await verifier.keysFetched();
      await verifier.keysFetched();
      expect(idp.fetches).to.deep.equal({ discovery: 1, jwks: 1 });
      idp.behaviour = 'erroring';
      await verifier.keysFetched();
    });

    it('keysFetched rejects while they were never fetched', async () => {
      idp.behaviour = 'erroring';
      const failed = await verifierOf()
        .keysFetched()
        .then(
          () => false,
          () => true,
        );
      expect(failed).to.equal(true);
    });

    it('takes no discovery document that names another issuer', async () => {
      const verifier = new JwtCredentialVerifier({ issuer: `${idp.issuer}/`, audience: TEST_AUDIENCE }, systemTime, NO_COOLDOWN);
      expect(reasonOf(await verifier.verify(await idp.sign({ iss: `${idp.issuer}/` })))).to.equal(
        'unavailable: the discovery document names another issuer',
      );
    });
  });

  describe('verified tokens', () => {
    it('are taken again without a fetch, but never past their exp', async () => {
      let now = new Date();
      const verifier = verifierOf(NO_COOLDOWN, { now: () => now });
      const token = await idp.sign({ exp: Math.floor(now.getTime() / 1000) + 20 });
      expect((await verifier.verify(token)).kind).to.equal('accepted');
      idp.behaviour = 'erroring';
      expect((await verifier.verify(token)).kind, 'taken from the cache').to.equal('accepted');
      now = new Date(now.getTime() + (20 + JWT_TIMINGS.clockSkewSeconds + 1) * 1000);
      expect(reasonOf(await verifier.verify(token))).to.equal('refused: token expired');
    });
  });
});
