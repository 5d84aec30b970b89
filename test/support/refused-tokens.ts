// The tokens a verifier must refuse, each with the reason it gives: the list (audience,
// issuer, expiry, not yet valid, alg none, HS256 with the public key, unknown kid, tampered
// payload or signature) and a few more. Used by the adapter's tests and over HTTP alike.
import {
  hs256WithPublicKey,
  tamperSignature,
  TEST_AUDIENCE,
  type TestIssuer,
  unsignedToken,
  withPaddingBits,
  withPayload,
} from './test-issuer.js';

const seconds = () => Math.floor(Date.now() / 1000);

/** What the token is, how the issuer makes it, and the reason of its refusal. */
export type RefusedToken = readonly [what: string, tokenOf: (issuer: TestIssuer) => Promise<string>, reason: string];

export const REFUSED_TOKENS: readonly RefusedToken[] = [
  ['a wrong audience', (i) => i.sign({ aud: 'https://other.test/api' }), 'wrong audience'],
  ['a wrong issuer', (i) => i.sign({ iss: 'https://other.test' }), 'wrong issuer'],
  ['an expired token', (i) => i.sign({ exp: seconds() - 120 }), 'token expired'],
  ['a token not yet valid', (i) => i.sign({ nbf: seconds() + 120 }), 'token not yet valid'],
  ['a token without exp', (i) => i.sign({ exp: undefined }), 'no exp claim'],
  ['a token without sub', (i) => i.sign({ sub: undefined }), 'no sub claim'],
  ['another typ than an access token', (i) => i.sign({}, { typ: 'dpop+jwt' }), 'not an access token'],
  [
    'alg none',
    (i) => Promise.resolve(unsignedToken({ iss: i.issuer, aud: TEST_AUDIENCE, sub: 'alice', exp: seconds() + 300 })),
    'algorithm not allowed',
  ],
  ['HS256 signed with the public key as its secret', hs256WithPublicKey, 'algorithm not allowed'],
  ['a kid not in the JWKS', async (i) => i.sign({}, { kid: await i.addKey('ES256', false) }), 'unknown key'],
  [
    'a tampered payload',
    async (i) =>
      withPayload(await i.sign({ scope: 'pets:read' }), {
        iss: i.issuer,
        aud: TEST_AUDIENCE,
        sub: 'alice',
        scope: 'pets:read pets:write',
        exp: seconds() + 300,
      }),
    'bad signature',
  ],
  ['a tampered signature', async (i) => tamperSignature(await i.sign()), 'bad signature'],
  ['a signature whose unused last bits are set', async (i) => withPaddingBits(await i.sign()), 'bad signature'],
];
