// Whether the server traces: OpenTelemetry's own environment variables decide, as its SDK
// documents them. An OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone) turns tracing on, unless
// OTEL_SDK_DISABLED is `true`. Every other setting (the service name, the sampler, the batch
// processor's) is the SDK's to read: this service reads none of them itself.

/** The variables whose value, when not empty, turns tracing on. */
export const OTLP_ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;

/** Whether `env` configures tracing: an OTLP endpoint is set and the SDK is not disabled. */
export function tracingConfigured(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  return OTLP_ENDPOINT_VARIABLES.some((name) => (env[name]?.trim() ?? '') !== '');
}
