// The one error type of the client: an Error body of the service, or a failure to get one.

/**
 * One problem of a refused request, as the service lists it in `details` (docs/errors.md);
 * for `invalid_transition`, also the pet's status and those it may take from there.
 */
export interface PetStoreErrorDetail {
  readonly in: string;
  readonly field: string;
  readonly message: string;
  /** `invalid_transition`: the pet's current status. */
  readonly currentStatus?: string;
  /** `invalid_transition`: the statuses the current one may change to. */
  readonly allowedStatuses?: readonly string[];
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
  override readonly name: string = 'PetStoreError';
  /** The machine-readable code. */
  readonly code: string;
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The request id (X-Request-Id) the service logged the request under: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** What the service listed in the Error body's `details` (`invalid_parameter`, `validation_failed`, `invalid_transition`); empty otherwise. */
  readonly details: readonly PetStoreErrorDetail[];
  /** Seconds the service asked to wait (Retry-After) before trying again, if it said. */
  readonly retryAfterSeconds: number | undefined;
  /**
   * The attempts the call made, this failure's included (1: it was not retried). Above 1 after
   * a change or deletion, an earlier attempt may have gone through: a 412 or 404 may be that.
   */
  readonly attempts: number;

  constructor(
    init: {
      code: string;
      message: string;
      status?: number | undefined;
      requestId?: string | undefined;
      details?: readonly PetStoreErrorDetail[] | undefined;
      retryAfterSeconds?: number | undefined;
      attempts?: number | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts ?? 1;
  }
}

/**
 * A call refused because its credential does not hold the scope the operation needs
 * (`403 insufficient_scope`): another credential is needed, so it is never retried. A
 * {@link PetStoreError} too, with the code `insufficient_scope`.
 */
export class InsufficientScopeError extends PetStoreError {
  override readonly name: string = 'InsufficientScopeError';
  /** The scope the operation needs (`pets:write`), as the service's `WWW-Authenticate` names it; undefined when it does not. */
  readonly scope: string | undefined;

  constructor(init: ConstructorParameters<typeof PetStoreError>[0] & { scope: string | undefined }) {
    const { scope, ...rest } = init;
    super(rest);
    this.scope = scope;
  }
}
