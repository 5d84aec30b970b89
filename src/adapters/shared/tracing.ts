// What the adapters ask of tracing, with no tracing library: spans around their work and the
// trace context of the work under way. The OpenTelemetry adapter (adapters/tracing) provides it
// when tracing is configured; without it, the adapters are given none and trace nothing.
import type { Middleware } from 'koa';
import type { TraceContext } from '../../domain/index.js';
import type { CurrentTraceContext } from './trace-context.js';

/** A span's attributes: OpenTelemetry's semantic conventions where they name one. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** A span under way, as the adapters may touch it. */
export interface SpanHandle {
  /** Adds attributes to it. */
  set(attributes: SpanAttributes): void;
  /** Marks it failed, telling what went wrong by its type and message (never a stack). */
  fail(fault: unknown): void;
}

/** A span started by {@link Tracing.startSpan}, which its starter ends. */
export interface StartedSpan extends SpanHandle {
  end(): void;
}

/** How a span begins. */
export interface SpanOptions {
  /** OpenTelemetry's span kind: `internal` when absent. */
  readonly kind?: 'internal' | 'producer' | 'client';
  /**
   * Its parent: a stored trace context (an event's); `null` for none, so that it starts a
   * trace; absent, the span under way (in which a wake-up of a timer may stand as well).
   */
  readonly parent?: TraceContext | null;
  readonly attributes?: SpanAttributes;
  /** When it began, in milliseconds since the epoch (fractions allowed): now when absent. */
  readonly startTime?: number;
}

/** Tracing, as the composition root hands it to the adapters when it is configured. */
export interface Tracing {
  /** The trace context of the span under way, to store with the event of a change. */
  readonly current: CurrentTraceContext;
  /** Starts a span; its starter ends it. */
  startSpan(name: string, options?: SpanOptions): StartedSpan;
  /** Runs `work` in a new span, the one under way within it; the span ends when `work` settles, failed when it rejects. */
  inSpan<T>(name: string, options: SpanOptions, work: (span: SpanHandle) => Promise<T>): Promise<T>;
  /** The outermost Koa middleware: one server span per request, child of the request's `traceparent`. */
  readonly requestSpans: Middleware;
  /** The `trace_id` and `span_id` of the span under way, for a log line; none outside a span. */
  readonly logFields: () => Record<string, string>;
  /** Exports the spans that wait, then stops. */
  shutdown(): Promise<void>;
}
