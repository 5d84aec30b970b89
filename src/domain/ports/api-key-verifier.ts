// Who is calling: the port the driving adapter asks about a presented credential.
import type { Option } from 'fp-ts/lib/Option.js';

/** Who is calling: the identity behind a valid API key, safe to log (it is never the key). */
export interface Caller {
  readonly id: string;
}

/** Tells who a presented API key belongs to. */
export interface ApiKeyVerifier {
  /** The caller the key belongs to, or none when the key is unknown. */
  verify(apiKey: string): Promise<Option<Caller>>;
}
