// The trace context of a change as the adapters pass it around, with no tracing library: how
// a storage adapter asks for the context of the work under way (to store it with the event),
// and how a stored context becomes the W3C headers of a message or a request.
import type { TraceContext } from '../../domain/index.js';

/** The W3C Trace Context of the work under way (a traced request's span), or undefined when none is traced. */
export type CurrentTraceContext = () => TraceContext | undefined;

/** `trace` as the W3C `traceparent` and `tracestate` headers (none without it). */
export function traceHeaders(trace: TraceContext | undefined): Record<string, string> {
  if (trace === undefined) return {};
  return trace.tracestate === undefined
    ? { traceparent: trace.traceparent }
    : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}

/** The trace context of stored `traceparent` and `tracestate` columns (NULL when none was stored). */
export function traceContextOfColumns(
  traceparent: string | null | undefined,
  tracestate: string | null | undefined,
): TraceContext | undefined {
  if (traceparent === null || traceparent === undefined) return undefined;
  return tracestate === null || tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** `trace` as the `traceparent` and `tracestate` columns that store it (NULL for none). */
export function columnsOfTraceContext(trace: TraceContext | undefined): [traceparent: string | null, tracestate: string | null] {
  return [trace?.traceparent ?? null, trace?.tracestate ?? null];
}
