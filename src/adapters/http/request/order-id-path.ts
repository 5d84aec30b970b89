// The {orderId} of /orders/{orderId} (see id-path.ts).
import { type OrderId, type OrderNotFound, orderNotFound } from '../../../domain/index.js';
import { idPath } from './id-path.js';
import { OrderPathParams } from './parameters.js';

const orderIdPath = idPath<OrderId, OrderNotFound, 'orderId'>(OrderPathParams, 'orderId', orderNotFound);

/** Decodes the path's orderId for {@link orderIdOf}, or answers 400 naming it. */
export const readOrderId = orderIdPath.read;

/** The order id readOrderId decoded, or OrderNotFound for an id no order can have. */
export const orderIdOf = orderIdPath.idOf;
