// Where the identity provider publishes its keys: the `jwks_uri` of its OpenID Provider
// Metadata, at `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4).
import { KeySetUnavailable } from './key-set-unavailable.js';

/** The URL of the discovery document of `issuer`: a trailing `/` of the issuer is dropped first. */
export const discoveryUrlOf = (issuer: string): URL => new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);

/**
 * The JWKS URL that `issuer` publishes. The document must name the same issuer (§4.3), so that a
 * document served for another issuer is never taken, and the JWKS must be as secure as the
 * issuer: https, unless the issuer itself is plain http (a loopback test issuer).
 *
 * @throws KeySetUnavailable when the document cannot be had or is not one for `issuer`
 */
export async function discoverJwksUrl(issuer: string, timeoutMs: number): Promise<URL> {
  const document = await fetchDiscoveryDocument(discoveryUrlOf(issuer), timeoutMs);
  if (document['issuer'] !== issuer) throw new KeySetUnavailable('the discovery document names another issuer');
  const jwksUri = document['jwks_uri'];
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) throw new KeySetUnavailable('the discovery document has no jwks_uri');
  const url = new URL(jwksUri);
  const allowed = new URL(issuer).protocol === 'http:' ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) throw new KeySetUnavailable('the jwks_uri of the discovery document is not https');
  return url;
}

async function fetchDiscoveryDocument(url: URL, timeoutMs: number): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    // No redirect is followed, as jose does for the JWKS: the document is where the issuer says.
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new KeySetUnavailable(isTimeout(cause) ? 'the discovery document timed out' : 'the discovery document is unreachable', { cause });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new KeySetUnavailable(`the discovery document answered ${response.status}`);
  }
  let document: unknown;
  try {
    document = await response.json();
  } catch (cause) {
    throw new KeySetUnavailable(isTimeout(cause) ? 'the discovery document timed out' : 'the discovery document is not JSON', { cause });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new KeySetUnavailable('the discovery document is not a JSON object');
  }
  return document as Record<string, unknown>;
}

const isTimeout = (fault: unknown): boolean => fault instanceof Error && (fault.name === 'TimeoutError' || fault.name === 'AbortError');
