// What the client makes of an answer, or of its absence: JSON, or a PetStoreError.
import { CLIENT_ERROR_CODES, InsufficientScopeError, PetStoreError, type PetStoreErrorDetail } from './pet-store-error.js';

/** An Error body of the service, loosely checked. */
interface ErrorBody {
  code?: unknown;
  message?: unknown;
  details?: unknown;
  requestId?: unknown;
}

/** The body as JSON, or undefined when it is not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!/json/i.test(response.headers.get('Content-Type') ?? '')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The failure an error answer stands for: its Error body, or `unexpected_response` without one. */
export function errorOf(response: Response, body: unknown, sentRequestId: string, attempts: number): PetStoreError {
  const error = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
  const isErrorBody = typeof error.code === 'string' && typeof error.message === 'string';
  const init = {
    code: isErrorBody ? (error.code as string) : CLIENT_ERROR_CODES.unexpected,
    message: isErrorBody ? (error.message as string) : `HTTP ${response.status} without an Error body`,
    status: response.status,
    requestId: typeof error.requestId === 'string' ? error.requestId : (response.headers.get('X-Request-Id') ?? sentRequestId),
    details: Array.isArray(error.details) ? (error.details as PetStoreErrorDetail[]) : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
    attempts,
  };
  return init.code === 'insufficient_scope'
    ? new InsufficientScopeError({ ...init, scope: challengedScope(response) })
    : new PetStoreError(init);
}

/** The scope a `WWW-Authenticate: Bearer … scope="…"` challenge names (RFC 6750 §3), if any. */
const challengedScope = (response: Response): string | undefined =>
  /(?:^|[\s,])scope="([^"]*)"/.exec(response.headers.get('WWW-Authenticate') ?? '')?.[1];

/** The failure of an attempt that got no answer: `timeout` or `network_error`. */
export function networkFailure(err: unknown, requestId: string, attempts: number): PetStoreError {
  const timedOut = (err as { name?: unknown } | null)?.name === 'TimeoutError';
  return new PetStoreError(
    {
      code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.network,
      message: timedOut ? 'No answer in time' : `The service could not be reached: ${(err as Error)?.message ?? String(err)}`,
      requestId,
      attempts,
    },
    { cause: err },
  );
}
