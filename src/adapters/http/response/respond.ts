// Where use-case results become HTTP: a Right is the success body, a Left the Error body.
//
// The HTTP adapter reads and writes through ctx.request and ctx.response, not their aliases on
// ctx (ctx.status, ctx.body, ctx.set, ctx.get, ctx.method): Koa makes every alias with the
// `delegates` package from one function each for getters, setters and methods, so V8 sees one
// call site for all of them, never settles on one property, and sends every `ctx.body =` and
// `ctx.status =` through its runtime (docs/decisions/0004-koa-request-response-over-ctx-aliases.md).
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { Context } from 'koa';
import { type CategoryError, type DomainError, describeFailures } from '../../../domain/index.js';
import { type ApiError, apiError, type ErrorDetail } from '../errors/error-catalogue.js';
import { sendError } from '../errors/send-error.js';
import { sendJson } from './send-json.js';

/** The one place a domain failure is given its HTTP form. */
export function domainErrorToApiError(error: DomainError): ApiError {
  switch (error.code) {
    case 'pet_not_found':
      return apiError('pet_not_found', `No pet has id ${error.petId}`);
    case 'idempotency_key_in_use':
      return apiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry shortly', {
        headers: { 'Retry-After': '1' },
      });
    case 'idempotency_key_reused':
      return apiError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a request with another body; use a new key for a new pet',
      );
    case 'invalid_transition':
      return transitionError(`Pet ${error.petId}`, error.from, error.to, error.allowed);
    case 'precondition_failed':
      return preconditionError(`Pet ${error.petId}`, error.failed);
    case 'category_not_found':
      return apiError('category_not_found', `No category has id ${error.categoryId}`);
    case 'category_name_taken':
      return apiError(
        'category_name_taken',
        `Another category is named ${JSON.stringify(error.name)} (names are compared case-insensitively)`,
      );
    case 'category_in_use':
      return apiError('category_in_use', `Category ${error.categoryId} has pets: move or delete them first; nothing was done`);
    case 'category_precondition_failed':
      return preconditionError(`Category ${error.categoryId}`, error.failed);
    case 'unknown_category':
      return apiError('unknown_category', `No category has id ${error.categoryId}, and this service takes only registered categories`, {
        details: [{ in: 'body', field: '/categoryId', message: 'names no category' }],
      });
    default:
      return orderErrorToApiError(error);
  }
}

/** A 412: `subject` is not in a version the request's If-Match names, or is in one its If-None-Match names. */
const preconditionError = (subject: string, failed: 'expected' | 'excluded'): ApiError =>
  apiError(
    'precondition_failed',
    failed === 'expected'
      ? `${subject} is not in a version If-Match names (it changed since, or the field names none); nothing was done`
      : `${subject} is in a version If-None-Match names (any, for *); nothing was done`,
  );

/** A 409 invalid_transition: `subject` cannot move from `from` to `to`. */
const transitionError = (subject: string, from: string, to: string, allowed: readonly string[]): ApiError => {
  const next = allowed.length === 0 ? `${from} is final` : `it can become ${allowed.join(' or ')}`;
  const message = `cannot change from ${from} to ${to}: ${next}`;
  return apiError('invalid_transition', `${subject} ${message}`, {
    details: [{ in: 'body', field: '/status', message, currentStatus: from, allowedStatuses: allowed }],
  });
};

/** The HTTP form of the failures of orders and of the pets they reserve. */
function orderErrorToApiError(error: Exclude<DomainError, { code: PetErrorCode }>): ApiError {
  switch (error.code) {
    case 'order_not_found':
      return apiError('order_not_found', `No order has id ${error.orderId}`);
    case 'unknown_pet':
      return apiError('unknown_pet', `No pet has id ${error.petId}: an order needs a pet that exists`, {
        details: [{ in: 'body', field: '/petId', message: `names no pet` }],
      });
    case 'pet_unavailable':
      return apiError('pet_unavailable', `Pet ${error.petId} is ${error.status}, not available: it cannot be ordered`, {
        details: [{ in: 'body', field: '/petId', message: `is ${error.status}`, currentStatus: error.status }],
      });
    case 'pet_reserved':
      return apiError(
        'pet_reserved',
        `Pet ${error.petId} is held by open order ${error.orderId}: its status cannot change, nor can it be deleted, until the order is delivered or cancelled`,
        {
          details: [{ in: 'path', field: 'petId', message: `is held by order ${error.orderId}`, orderId: Number(error.orderId) }],
        },
      );
    case 'invalid_order_transition':
      return transitionError(`Order ${error.orderId}`, error.from, error.to, error.allowed);
    case 'order_precondition_failed':
      return preconditionError(`Order ${error.orderId}`, error.failed);
  }
}

/** The codes {@link domainErrorToApiError} answers itself: the pets' and the categories'. */
type PetErrorCode =
  | 'pet_not_found'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'invalid_transition'
  | 'precondition_failed'
  | CategoryError['code']
  | 'unknown_category';

export function respond<A>(ctx: Context, result: E.Either<DomainError, A>, successStatus: number): void {
  if (E.isLeft(result)) {
    sendError(ctx, domainErrorToApiError(result.left));
    return;
  }
  sendJson(ctx, successStatus, result.right);
}

/** `input`, the request's `where`, decoded by `codec`; or undefined once the 400 of {@link invalidInput} is answered. */
export function decodedInput<A>(ctx: Context, where: 'query' | 'body', codec: t.Decoder<unknown, A>, input: unknown): A | undefined {
  const decoded = codec.decode(input);
  if (E.isRight(decoded)) return decoded.right;
  sendError(ctx, invalidInput(where, decoded.left));
  return undefined;
}

/** A 400 naming every invalid field of one part of the request, each with what is wrong with it. */
export function invalidInput(where: ErrorDetail['in'], errors: t.Errors): ApiError {
  const details = describeFailures(errors).map(({ pointer, message }) => ({
    in: where,
    // Parameters are named plainly (`limit`); body fields keep their JSON Pointer (`/name`).
    field: where === 'body' ? pointer : pointer.slice(1),
    message,
  }));
  const summary = details.map((d) => `${d.field === '' ? 'the body' : d.field} ${d.message}`).join('; ');
  return where === 'body'
    ? apiError('validation_failed', `The request body is invalid: ${summary}`, { details })
    : apiError('invalid_parameter', `Invalid ${where} parameter: ${summary}`, { details });
}
