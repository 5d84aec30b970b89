// A real identity provider for tests: an HTTP server on an ephemeral loopback port that serves
// OpenID discovery and a JWKS of real keys (jose's generateKeyPair), and signs real tokens with
// them (SignJWT). It can rotate keys, fail, or hang, and counts what it was asked.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type CryptoKey, exportJWK, exportSPKI, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';

/** How the issuer answers: normally, with 500 to everything, or never (the request hangs). */
export type IssuerBehaviour = 'up' | 'erroring' | 'hanging';

export const TEST_AUDIENCE = 'https://petstore.test/api';

interface SigningKey {
  readonly alg: SigningAlgorithm;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export interface TestIssuer {
  /** The issuer, as `iss` and PETSTORE_JWT_ISSUER: `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly jwksUrl: string;
  /** How many times each document was asked for. */
  readonly fetches: { discovery: number; jwks: number };
  behaviour: IssuerBehaviour;
  /** A new key, published at once unless `publish` is false; answers its kid. */
  addKey(alg?: SigningAlgorithm, publish?: boolean): Promise<string>;
  /** Publishes only the keys named. */
  publish(...kids: string[]): void;
  /** The public key of `kid` as a JWK. */
  publicJwk(kid: string): JWK;
  /** A token signed with `kid` (the first key by default), of the claims given over a valid default set. */
  sign(claims?: Record<string, unknown>, options?: { kid?: string; typ?: string | null }): Promise<string>;
  close(): Promise<void>;
}

/** Starts a test issuer with one RS256 key, published. */
export async function startTestIssuer(): Promise<TestIssuer> {
  const keys = new Map<string, SigningKey>();
  let published: string[] = [];
  const held = new Set<Socket>();
  const fetches = { discovery: 0, jwks: 0 };
  let origin = '';
  const state = { behaviour: 'up' as IssuerBehaviour };

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url === '/.well-known/openid-configuration') fetches.discovery++;
    else if (req.url === '/jwks') fetches.jwks++;
    if (state.behaviour === 'hanging') return;
    if (state.behaviour === 'erroring') return void res.writeHead(500).end();
    if (req.url === '/.well-known/openid-configuration') return json(res, { issuer: origin, jwks_uri: `${origin}/jwks` });
    if (req.url === '/jwks') return json(res, { keys: published.map((kid) => keys.get(kid)!.publicJwk) });
    res.writeHead(404).end();
  };
  const server = createServer(answer);
  server.on('connection', (socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const issuer: TestIssuer = {
    issuer: origin,
    jwksUrl: `${origin}/jwks`,
    fetches,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(value) {
      state.behaviour = value;
    },
    async addKey(alg = 'RS256', publish = true) {
      const kid = `key-${keys.size + 1}-${alg}`;
      const pair = await keyPairOf(alg, [...keys.values()].filter((key) => key.alg === alg).length);
      keys.set(kid, { alg, privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' } });
      if (publish) published.push(kid);
      return kid;
    },
    publish(...kids) {
      published = kids;
    },
    publicJwk: (kid) => keys.get(kid)!.publicJwk,
    async sign(claims = {}, options = {}) {
      const kid = options.kid ?? keys.keys().next().value!;
      const key = keys.get(kid)!;
      const now = Math.floor(Date.now() / 1000);
      const typ = options.typ === undefined ? 'at+jwt' : options.typ;
      return new SignJWT({
        iss: origin,
        aud: TEST_AUDIENCE,
        sub: 'alice',
        scope: 'pets:read pets:write',
        iat: now,
        exp: now + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: key.alg, kid, ...(typ === null ? {} : { typ }) })
        .sign(key.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
      }),
  };
  await issuer.addKey('RS256');
  return issuer;
}

// Key pairs are made once per process and shared by the issuers of every test (an RSA key takes a while).
const keyPairs = new Map<string, ReturnType<typeof generateKeyPair>>();
function keyPairOf(alg: SigningAlgorithm, index: number): ReturnType<typeof generateKeyPair> {
  const name = `${alg}-${index}`;
  if (!keyPairs.has(name))
    keyPairs.set(name, generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519', extractable: true } : { extractable: true }));
  return keyPairs.get(name)!;
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** `token` with its payload segment replaced by `payload`, its header and signature kept. */
export const withPayload = (token: string, payload: JWTPayload): string => {
  const [header, , signature] = token.split('.');
  return `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
};

/** An unsigned token (`alg: none`) of `payload`. */
export const unsignedToken = (payload: JWTPayload): string =>
  `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;

/** An HS256 token whose secret is the issuer's public key (PEM): the algorithm-confusion attack. */
export async function hs256WithPublicKey(idp: TestIssuer): Promise<string> {
  const kid = 'key-1-RS256';
  const pem = await exportSPKI((await importJWK(idp.publicJwk(kid), 'RS256', { extractable: true })) as CryptoKey);
  return new SignJWT({ iss: idp.issuer, aud: TEST_AUDIENCE, sub: 'alice', exp: Math.floor(Date.now() / 1000) + 300 })
    .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
    .sign(new TextEncoder().encode(pem));
}

/** `token` with the unused low bits of its signature's last character set: the same bytes to a lenient decoder. */
export function withPaddingBits(token: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = token.at(-1)!;
  // An RS256 signature (256 bytes) ends in a character of which 4 bits are unused.
  return `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) | 1]}`;
}

/** `token` with one character in the middle of its signature changed. */
export function tamperSignature(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const at = Math.floor(signature.length / 2);
  const changed = signature[at] === 'A' ? 'B' : 'A';
  return `${header}.${payload}.${signature.slice(0, at)}${changed}${signature.slice(at + 1)}`;
}
