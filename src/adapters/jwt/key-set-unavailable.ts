// The fault of a key set that cannot be had now: the discovery document or the JWKS did not
// come (unreachable, too slow, not 200, not JSON, not a key set). A request whose token needs
// the keys is then answered "unavailable" (503), never "refused": the token may well be valid.

/** The keys could not be fetched; `reason` is short and safe to show (it names no URL). */
export class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable';

  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(reason, options);
  }
}
