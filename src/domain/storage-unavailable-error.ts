// The one fault a port reports as "try again later" rather than as a bug: the store behind it
// could not be reached or did not answer in time. Storage adapters throw it, the driving
// adapter answers it (HTTP: 503, every other fault 500); it lives here, beside the ports, so
// that neither has to import the other.

/** The store (a PostgreSQL server, for instance) is unreachable, shutting down, or too slow to answer. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';

  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
  }
}
