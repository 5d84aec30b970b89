// Tracing with OpenTelemetry's SDK: spans exported in batches over OTLP/HTTP, in binary protobuf
// or in JSON as the composition root says, configured by the SDK's own environment variables (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER,
// OTEL_TRACES_SAMPLER_ARG, OTEL_BSP_*), which the SDK reads where it documents them. The
// composition root imports this module only when tracing is configured
// (docs/decisions/0029-tracing-sdk-loaded-only-when-configured.md).
import {
  type Context,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  propagation,
  type ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TraceContext } from '../../domain/index.js';
import { describeFault } from '../../domain/fault-description.js';
import { traceContextOfColumns, traceHeaders } from '../shared/trace-context.js';
import type { SpanHandle, SpanOptions, StartedSpan, Tracing } from '../shared/tracing.js';
import { requestSpans } from './request-spans.js';

/** The service's name in its spans when OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names none. */
export const DEFAULT_SERVICE_NAME = 'petstore';

const KINDS = { internal: SpanKind.INTERNAL, producer: SpanKind.PRODUCER, client: SpanKind.CLIENT } as const;

/** `span` as the adapters touch it. */
function handleOf(span: Span): StartedSpan {
  return {
    set: (attributes) => void span.setAttributes(attributes),
    fail: (fault) => {
      const { type, message } = describeFault(fault);
      span.setAttribute(ATTR_ERROR_TYPE, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    },
    end: () => span.end(),
  };
}

/** OTLP over HTTP in binary protobuf (OpenTelemetry's default, and the cheaper to encode) or in JSON. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/**
 * Starts the SDK (registered as the process's tracer provider, context manager and W3C
 * propagator), exporting in `protocol`, and answers the adapters' Tracing.
 */
export function startOtelTracing(protocol: OtlpProtocol = 'http/protobuf'): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: DEFAULT_SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = protocol === 'http/json' ? new OtlpJsonExporter() : new OtlpProtobufExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const propagator = new W3CTraceContextPropagator();
  provider.register({ propagator });
  // An app that embeds the store may have registered an SDK of its own first: its globals
  // stay (the store's spans go through its own tracer all the same), and the stop leaves them.
  const registered = (trace.getTracerProvider() as Partial<ProxyTracerProvider>).getDelegate?.() === provider;
  const tracer: Tracer = provider.getTracer('petstore');

  const parentOf = (parent: TraceContext | null | undefined): Context =>
    parent === undefined
      ? context.active()
      : parent === null
        ? ROOT_CONTEXT
        : propagator.extract(ROOT_CONTEXT, traceHeaders(parent), defaultTextMapGetter);
  const begin = (name: string, options: SpanOptions = {}): { span: Span; within: Context } => {
    const parent = parentOf(options.parent);
    const { kind = 'internal', attributes = {}, startTime } = options;
    const span = tracer.startSpan(name, { kind: KINDS[kind], attributes, ...(startTime === undefined ? {} : { startTime }) }, parent);
    return { span, within: trace.setSpan(parent, span) };
  };

  return {
    current: () => {
      const active = context.active();
      const span = trace.getSpan(active);
      if (span === undefined || !isSpanContextValid(span.spanContext())) return undefined;
      const carrier: Record<string, string> = {};
      propagator.inject(active, carrier, defaultTextMapSetter);
      return traceContextOfColumns(carrier['traceparent'], carrier['tracestate']);
    },
    startSpan: (name, options) => handleOf(begin(name, options).span),
    inSpan: async <T>(name: string, options: SpanOptions, work: (span: SpanHandle) => Promise<T>): Promise<T> => {
      const { span, within } = begin(name, options);
      const handle = handleOf(span);
      try {
        return await context.with(within, work, undefined, handle);
      } catch (fault) {
        handle.fail(fault);
        throw fault;
      } finally {
        span.end();
      }
    },
    requestSpans: requestSpans(tracer),
    logFields: () => {
      const span = trace.getActiveSpan();
      if (span === undefined) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    shutdown: async () => {
      await provider.shutdown();
      if (!registered) return;
      // A later start in this process (a test's next store) registers afresh.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
