// The one error type of the client: an Error body of the service, or a failure to get one.

/** One problem of a refused request, as the service lists it in `details`. */
export interface PetStoreErrorDetail {
  readonly in: string;
  readonly field: string;
  readonly message: string;
}

/** Codes the client itself gives, when the service's answer is not an Error body. */
export const CLIENT_ERROR_CODES = {
  /** The service could not be reached, or the connection broke before an answer. */
  network: 'network_error',
  /** No answer within the client's timeout. */
  timeout: 'timeout',
  /** An answer the client cannot use: not the documented JSON, or a link to another origin. */
  unexpected: 'unexpected_response',
} as const;

/**
 * A call of {@link PetStoreClient} that failed. `code` is the service's Error code (see
 * docs/errors.md: `validation_failed`, `unauthorized`, `pet_not_found`, …) or one of
 * {@link CLIENT_ERROR_CODES} when there was no Error body.
 */
export class PetStoreError extends Error {
  override readonly name = 'PetStoreError';
  /** The machine-readable code. */
  readonly code: string;
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The request id (X-Request-Id) the service logged the request under: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Every problem of a refused request (`invalid_parameter`, `validation_failed`); empty otherwise. */
  readonly details: readonly PetStoreErrorDetail[];
  /** Seconds the service asked to wait (Retry-After) before trying again, if it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    init: {
      code: string;
      message: string;
      status?: number | undefined;
      requestId?: string | undefined;
      details?: readonly PetStoreErrorDetail[] | undefined;
      retryAfterSeconds?: number | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}
