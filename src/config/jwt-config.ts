// JWT access tokens from an identity provider: its issuer, the API's audience, and optionally
// where its keys are (PETSTORE_JWT_ISSUER, PETSTORE_JWT_AUDIENCE, PETSTORE_JWT_JWKS_URL). The
// issuer and audience turn tokens on together; one without the other is an error, as is a JWKS
// URL without them, so that a half-made setting never starts a service that silently refuses.
import * as E from 'fp-ts/lib/Either.js';
import { checkedText, fromText } from './setting-codecs.js';

/** Who issues the tokens the service accepts, for which audience, and where its keys are. */
export interface JwtConfig {
  readonly issuer: string;
  readonly audience: string;
  /** Without it, the keys are where the issuer's OpenID discovery document says. */
  readonly jwksUrl?: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** `text` when it is an https URL (or http on a loopback address, for a local issuer) without query or fragment. */
function parseSecureUrl(text: string): E.Either<string, string> {
  if (!URL.canParse(text)) return E.left('must be an https:// URL');
  const url = new URL(text);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  if (!secure) return E.left('must be an https:// URL (http:// only on a loopback address)');
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return E.left('must be a URL without query, fragment or credentials');
  }
  return E.right(text);
}

/** PETSTORE_JWT_ISSUER: the `iss` of the tokens, exactly as the provider writes it (a trailing `/` counts). */
export const JwtIssuer = fromText('JwtIssuer', parseSecureUrl);

/** PETSTORE_JWT_JWKS_URL: where the provider publishes its keys. */
export const JwtJwksUrl = fromText('JwtJwksUrl', parseSecureUrl);

/** PETSTORE_JWT_AUDIENCE: the API's identifier at the provider, the `aud` its tokens for the API carry. */
export const JwtAudience = checkedText('JwtAudience', (text) =>
  /^[\x21-\x7e]{1,255}$/.test(text) ? undefined : 'must be 1 to 255 printable ASCII characters, without spaces',
);

/** The tokens' settings from the three decoded variables: none when none is set, an error when only some are. */
export function jwtConfigOf(issuer?: string, audience?: string, jwksUrl?: string): E.Either<string, JwtConfig | undefined> {
  if (issuer === undefined && audience === undefined) {
    return jwksUrl === undefined ? E.right(undefined) : E.left('PETSTORE_JWT_JWKS_URL needs PETSTORE_JWT_ISSUER and PETSTORE_JWT_AUDIENCE');
  }
  if (issuer === undefined)
    return E.left('PETSTORE_JWT_AUDIENCE needs PETSTORE_JWT_ISSUER: set both to accept JWT access tokens, or neither');
  if (audience === undefined)
    return E.left('PETSTORE_JWT_ISSUER needs PETSTORE_JWT_AUDIENCE: set both to accept JWT access tokens, or neither');
  return E.right({ issuer, audience, ...(jwksUrl === undefined ? {} : { jwksUrl }) });
}
