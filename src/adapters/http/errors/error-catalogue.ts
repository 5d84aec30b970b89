// Every `code` an Error body can carry, with its HTTP status. These strings are part of the
// public interface: never rename one; add new ones here and in docs/errors.md (a test checks both).
/** Every `code` an Error body can carry, with its HTTP status (docs/errors.md explains each). */
export const ERROR_CATALOGUE = {
  invalid_parameter: 400,
  validation_failed: 400,
  malformed_json: 400,
  invalid_utf8: 400,
  missing_body: 400,
  bad_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  pet_not_found: 404,
  order_not_found: 404,
  category_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  invalid_transition: 409,
  pet_unavailable: 409,
  pet_reserved: 409,
  category_name_taken: 409,
  category_in_use: 409,
  precondition_failed: 412,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  idempotency_key_reused: 422,
  unknown_pet: 422,
  unknown_category: 422,
  rate_limited: 429,
  headers_too_large: 431,
  client_error: 400,
  internal_error: 500,
  unsupported_transfer_coding: 501,
  service_unavailable: 503,
} as const;

/** One of the codes of {@link ERROR_CATALOGUE}. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One problem of a request, for the `details` of a 400: where it is and what is wrong. */
export interface ErrorDetail {
  readonly in: 'body' | 'query' | 'path' | 'header';
  /** A JSON Pointer into the body (`/name`), or the name of the query, path or header parameter. */
  readonly field: string;
  readonly message: string;
  /** On `invalid_transition`: the pet's or order's status now; on `pet_unavailable`: the pet's. */
  readonly currentStatus?: string;
  /** On `invalid_transition`: the statuses the pet or order may be moved to from its current one (none when it is final). */
  readonly allowedStatuses?: readonly string[];
  /** On `pet_reserved`: the open order that holds the pet. */
  readonly orderId?: number;
}

/** An error answer before it is written: the Error body's fields plus the headers it needs. */
export interface ApiError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  readonly headers?: Readonly<Record<string, string>>;
}

/** An ApiError with the catalogue's status for `code` (client_error keeps the status it is given). */
export const apiError = (
  code: ErrorCode,
  message: string,
  extra: Partial<Pick<ApiError, 'details' | 'headers' | 'status'>> = {},
): ApiError => ({ code, message, status: extra.status ?? ERROR_CATALOGUE[code], ...extra });

/** The seed's Error body: `code`, `message`, `status`, and `details` when there are any. */
export const errorBody = (error: ApiError): Record<string, unknown> =>
  error.details === undefined
    ? { code: error.code, message: error.message, status: error.status }
    : { code: error.code, message: error.message, status: error.status, details: error.details };
