// One server span per HTTP request, after OpenTelemetry's HTTP semantic conventions, named after
// the route template @koa/router matched (`PATCH /v1/pets/:petId`), and the child of the
// request's W3C `traceparent` (and `tracestate`) when it has one; a request without one starts
// a trace. Written here on the API rather than taken from an instrumentation of Koa or of the
// router, which lag @koa/router 15.
import type { RouterContext } from '@koa/router';
import { type Attributes, context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import type { Middleware } from 'koa';

/** The middleware of {@link Tracing.requestSpans}: outermost, so that the request's log line is written within its span. */
export const requestSpans = (tracer: Tracer): Middleware =>
  async function requestSpans(ctx, next) {
    const { request } = ctx;
    const { method } = request;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const attributes: Attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_URL_PATH]: request.path,
      [ATTR_URL_SCHEME]: request.protocol,
      [ATTR_SERVER_ADDRESS]: request.hostname,
      [ATTR_NETWORK_PROTOCOL_VERSION]: ctx.req.httpVersion,
    };
    const { ip } = request;
    if (ip !== '') attributes[ATTR_CLIENT_ADDRESS] = ip;
    const userAgent = request.headers['user-agent'];
    if (userAgent !== undefined && userAgent !== '') attributes[ATTR_USER_AGENT_ORIGINAL] = userAgent;
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      // The template of the route @koa/router ran; none for a 404, a 405 or an OPTIONS answer.
      const route = (ctx as RouterContext)._matchedRoute?.toString();
      if (route !== undefined) {
        span.updateName(`${method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      const { status } = ctx.response;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      // Only a server's own failure marks a server span failed; a 4xx is the client's.
      if (status >= 500) {
        span.setAttribute(ATTR_ERROR_TYPE, String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
  };
