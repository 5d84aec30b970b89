// The one fault a storage adapter reports as "try again later" rather than as a bug: its store
// could not be reached or did not answer in time. The HTTP edge answers it 503, every other fault 500.

/** The store (a PostgreSQL server, for instance) is unreachable, shutting down, or too slow to answer. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';

  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
  }
}
