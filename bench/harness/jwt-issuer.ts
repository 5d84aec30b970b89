// The identity provider of a --jwt run: the bench's own, on a free port of 127.0.0.1, serving
// OpenID discovery and the JWKS of one RS256 key it makes, and one access token signed with it
// that every request of the JWT side carries (as a client reuses its token until it expires).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const BENCH_JWT_AUDIENCE = 'https://petstore.bench/api';

export interface BenchIssuer {
  /** PETSTORE_JWT_ISSUER of the server measured. */
  readonly issuer: string;
  readonly audience: string;
  /** The Authorization header of the JWT side's requests. */
  readonly headers: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the issuer; its token is valid for `lifetimeSeconds` (long enough for the whole run). */
export async function startBenchIssuer(lifetimeSeconds = 4 * 3600): Promise<BenchIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' };
  let origin = '';
  const server = createServer((req, res) => {
    const body =
      req.url === '/.well-known/openid-configuration'
        ? { issuer: origin, jwks_uri: `${origin}/jwks` }
        : req.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = await new SignJWT({ scope: 'pets:read pets:write' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(origin)
    .setAudience(BENCH_JWT_AUDIENCE)
    .setSubject('bench')
    .setIssuedAt()
    .setExpirationTime(`${lifetimeSeconds}s`)
    .sign(privateKey);
  return {
    issuer: origin,
    audience: BENCH_JWT_AUDIENCE,
    headers: { authorization: `Bearer ${token}` },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
