// A real OTLP/HTTP receiver for tests: an HTTP server that takes what an OpenTelemetry exporter
// POSTs to /v1/traces (OTLP's JSON encoding, as @opentelemetry/exporter-trace-otlp-http sends
// it) and keeps every span, decoded, with its trace, its parent and its attributes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the receiver decoded it. */
export interface ReceivedSpan {
  readonly service: string | undefined;
  readonly name: string;
  /** OTLP's SpanKind: 2 server, 3 client, 4 producer, 1 internal. */
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** OTLP's status code: 2 error. */
  readonly statusCode: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind: number;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
      }>;
    }>;
  }>;
}

const valueOf = (value: OtlpValue): string | number | boolean =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue ?? '';

const attributesOf = (attributes: readonly OtlpAttribute[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]));

/** The spans of one OTLP/JSON export request. */
export function spansOfExport(body: OtlpExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = attributesOf(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service: typeof service === 'string' ? service : undefined,
        name: span.name,
        kind: span.kind,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
      })),
    );
  });
}

/** A receiver listening on an ephemeral port of 127.0.0.1. */
export interface OtlpReceiver {
  /** Where an exporter sends traces: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  readonly tracesUrl: string;
  /** Every span received so far. */
  readonly spans: ReceivedSpan[];
  /** The content types of the export requests, as sent. */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      contentTypes.push(req.headers['content-type'] ?? '');
      spans.push(...spansOfExport(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
