// The credential a client sends: a fixed API key, or what a provider answers before each
// attempt (a token refreshed as it nears its expiry).

/**
 * Gives the credential of a request: an API key or an access token. Called before each
 * attempt of each call, so that a token can be refreshed when it nears its expiry; a provider
 * that throws or rejects fails the call with its error, without a retry.
 */
export type BearerProvider = () => string | Promise<string>;

// The b64token of RFC 6750 §2.1: anything else would break the header, or smuggle into it.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The credential of each attempt, from an `apiKey` (sent as it is, as since 1.0) or a `bearer`
 * provider (its answer checked). @throws TypeError unless exactly one of them is given
 */
export function bearerOf({ apiKey, bearer }: { readonly apiKey?: string; readonly bearer?: BearerProvider }): () => Promise<string> {
  if ((apiKey === undefined) === (bearer === undefined)) throw new TypeError('give the client an apiKey or a bearer provider, exactly one');
  if (bearer === undefined) return () => Promise.resolve(apiKey!);
  if (typeof bearer !== 'function') throw new TypeError('bearer must be a function that answers the credential');
  return async () => {
    const token = await bearer();
    if (typeof token !== 'string' || !BEARER_TOKEN.test(token))
      throw new TypeError('the bearer provider must answer a bearer token (RFC 6750 b64token)');
    return token;
  };
}
