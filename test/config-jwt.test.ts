import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../src/config/config.js';

const jwtOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return E.isRight(config) ? config.right.jwt : config.left;
};

describe('configuration of JWT access tokens', () => {
  it('turns them on with an issuer and an audience, the JWKS URL optional', () => {
    expect(jwtOf({ PETSTORE_JWT_ISSUER: 'https://tenant.auth0.example/', PETSTORE_JWT_AUDIENCE: 'pets-api' })).to.deep.equal({
      issuer: 'https://tenant.auth0.example/',
      audience: 'pets-api',
    });
    expect(jwtOf({ PETSTORE_JWT_ISSUER: 'http://127.0.0.1:8080/realms/test', PETSTORE_JWT_AUDIENCE: 'pets-api' })).to.deep.equal({
      issuer: 'http://127.0.0.1:8080/realms/test',
      audience: 'pets-api',
    });
    expect(jwtOf({})).to.equal(undefined);
  });

  it('refuses one of issuer and audience without the other, and a JWKS URL without both', () => {
    expect(jwtOf({ PETSTORE_JWT_ISSUER: 'https://login.example' })).to.deep.equal([
      'PETSTORE_JWT_ISSUER needs PETSTORE_JWT_AUDIENCE: set both to accept JWT access tokens, or neither',
    ]);
    expect(jwtOf({ PETSTORE_JWT_AUDIENCE: 'pets-api' })).to.deep.equal([
      'PETSTORE_JWT_AUDIENCE needs PETSTORE_JWT_ISSUER: set both to accept JWT access tokens, or neither',
    ]);
    expect(jwtOf({ PETSTORE_JWT_JWKS_URL: 'https://login.example/keys' })).to.deep.equal([
      'PETSTORE_JWT_JWKS_URL needs PETSTORE_JWT_ISSUER and PETSTORE_JWT_AUDIENCE',
    ]);
  });

  it('refuses an issuer or JWKS URL that is not https (but http on loopback), and an audience with spaces', () => {
    expect(
      jwtOf({
        PETSTORE_JWT_ISSUER: 'http://login.example',
        PETSTORE_JWT_AUDIENCE: 'pets api',
        PETSTORE_JWT_JWKS_URL: 'https://login.example/keys?x=1',
      }),
    ).to.deep.equal([
      'PETSTORE_JWT_ISSUER must be an https:// URL (http:// only on a loopback address)',
      'PETSTORE_JWT_AUDIENCE must be 1 to 255 printable ASCII characters, without spaces',
      'PETSTORE_JWT_JWKS_URL must be a URL without query, fragment or credentials',
    ]);
    expect(jwtOf({ PETSTORE_JWT_ISSUER: 'login.example', PETSTORE_JWT_AUDIENCE: 'a' })).to.deep.equal([
      'PETSTORE_JWT_ISSUER must be an https:// URL',
    ]);
  });
});

describe('createPetStore with JWT access tokens', () => {
  it('checks its jwt option as the environment variables are checked, naming it', async () => {
    const { createPetStore } = await import('../src/index.js');
    const refused = await createPetStore({ jwt: { issuer: 'http://login.example', audience: 'pets api' } }).then(
      () => 'accepted',
      (err: unknown) => (err as Error).message,
    );
    expect(refused).to.equal(
      'createPetStore: jwt.issuer must be an https:// URL (http:// only on a loopback address); jwt.audience must be 1 to 255 printable ASCII characters, without spaces',
    );
  });
});
