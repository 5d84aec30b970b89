// Whether the server traces: OpenTelemetry's own environment variables decide, as its SDK
// documents them. An OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone) turns tracing on, unless
// OTEL_SDK_DISABLED is `true`; OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL)
// chooses the encoding of the export, which the service picks the exporter for, as the SDK's
// NodeSDK does. Every other setting (the service name, the sampler, the batch processor's) is the
// SDK's to read: this service reads none of them itself.

/** The variables whose value, when not empty, turns tracing on. */
export const OTLP_ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;

/** OTLP over HTTP, in binary protobuf (OpenTelemetry's default) or in JSON. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'] satisfies OtlpProtocol[];

/** Whether `env` configures tracing: an OTLP endpoint is set and the SDK is not disabled. */
export function tracingConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  return OTLP_ENDPOINT_VARIABLES.some((name) => (env[name]?.trim() ?? '') !== '');
}

/**
 * The protocol the spans are exported in: the traces' own variable, else the one of every
 * signal, else `http/protobuf`. A value the service cannot send (`grpc`, a typo) is named in
 * `unsupported`, and `http/protobuf` used instead, as OpenTelemetry's NodeSDK does. The process's
 * environment by default, where the SDK reads every other OTEL_* variable.
 */
export function otlpProtocol(env: Readonly<Record<string, string | undefined>> = process.env): {
  protocol: OtlpProtocol;
  unsupported?: string;
} {
  const named = [env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'], env['OTEL_EXPORTER_OTLP_PROTOCOL']]
    .map((value) => value?.trim() ?? '')
    .find((value) => value !== '');
  if (named === undefined) return { protocol: 'http/protobuf' };
  return PROTOCOLS.includes(named) ? { protocol: named as OtlpProtocol } : { protocol: 'http/protobuf', unsupported: named };
}
