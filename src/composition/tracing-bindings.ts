// Tracing, when it is configured: the OpenTelemetry adapter, imported only then (its SDK is
// never loaded otherwise: docs/decisions/0029-tracing-sdk-loaded-only-when-configured.md), and
// what the composition root makes of it: a span per use case, and the trace fields of the
// process's log lines.
import type { Container } from 'inversify';
import type { Tracing } from '../adapters/shared/tracing.js';
import { otlpProtocol } from '../config/tracing-config.js';
import { describeFault } from '../domain/fault-description.js';
import type { ContainerOptions } from './container-options.js';
import { TOKENS } from './tokens.js';

/**
 * Where the process's logger (made before its container, see createProcessLogger) reads the
 * trace fields of a line: nothing until tracing starts, the span under way's ids once it has.
 */
export const traceLogFields: { current: () => Record<string, string> } = { current: () => ({}) };

/** Binds TOKENS.Tracing: the started OpenTelemetry SDK when `options.tracing` is set, else undefined; closing the container exports the spans that wait. */
export function bindTracing(container: Container, options: ContainerOptions): void {
  container
    .bind<Tracing | undefined>(TOKENS.Tracing)
    .toResolvedValue(async () => {
      if (options.tracing !== true) return undefined;
      // In the encoding OpenTelemetry's variable names, read where the SDK reads its others.
      const { protocol, unsupported } = otlpProtocol();
      if (unsupported !== undefined) {
        options.logger.warn({ unsupported, protocol }, 'unsupported OTLP protocol: the spans are exported in http/protobuf');
      }
      const { startOtelTracing } = await import('../adapters/tracing/otel-tracing.js');
      const tracing = startOtelTracing(protocol);
      traceLogFields.current = tracing.logFields;
      return tracing;
    })
    .onDeactivation(async (tracing) => {
      if (tracing === undefined) return;
      traceLogFields.current = () => ({});
      // A collector away at the stop loses the last spans; the stop is clean all the same.
      await tracing
        .shutdown()
        .catch((fault: unknown) =>
          options.logger.warn({ fault: describeFault(fault) }, 'the last spans could not be exported at the stop'),
        );
    });
}

/** A use case: a function that answers a task, which resolves to an fp-ts Either. */
type UseCase = (...args: never[]) => () => Promise<unknown>;

/**
 * `useCase` with each run in a span named `name`, the child of the span under way (the
 * request's), in which its storage's writes record their events' trace context. A refusal
 * (the Either's left) is an outcome, not a failure: its code is an attribute.
 */
export function tracedUseCase<F extends UseCase>(tracing: Tracing | undefined, name: string, useCase: F): F {
  if (tracing === undefined) return useCase;
  const traced = (...args: Parameters<F>) => {
    const task = useCase(...args);
    return () =>
      tracing.inSpan(name, {}, async (span) => {
        const result = await task();
        const refused = (result as { _tag?: string; left?: { code?: unknown } }).left?.code;
        if (typeof refused === 'string') span.set({ 'petstore.refusal': refused });
        return result;
      });
  };
  return traced as unknown as F;
}

/** Binds the use case `token` to `make` over the `ports`, traced as `name` when tracing is on. */
export function bindUseCase<F extends UseCase>(
  container: Container,
  token: symbol,
  name: string,
  make: (...ports: never[]) => F,
  ports: readonly symbol[],
): void {
  container
    .bind<F>(token)
    .toResolvedValue(
      (tracing: Tracing | undefined, ...resolved: unknown[]) => tracedUseCase(tracing, name, make(...(resolved as never[]))),
      [TOKENS.Tracing, ...ports],
    );
}
