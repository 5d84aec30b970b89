// A real OTLP/HTTP receiver for tests: an HTTP server that takes what an OpenTelemetry exporter
// POSTs to /v1/traces, in either of OTLP's encodings (binary protobuf, as
// @opentelemetry/exporter-trace-otlp-proto sends it, or JSON, as exporter-trace-otlp-http does),
// and keeps every span, decoded, with its trace, its parent and its attributes.
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

type Field = readonly [number, number | Uint8Array];

/** The fields of a protobuf message, in order: a varint as a number, anything else as its bytes. */
function fieldsOf(bytes: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const take = (length: number): Uint8Array => bytes.subarray(at, (at += length));
  while (at < bytes.length) {
    const tag = varint();
    const type = tag & 7;
    fields.push([Math.floor(tag / 8), type === 0 ? varint() : type === 1 ? take(8) : type === 5 ? take(4) : take(varint())]);
  }
  return fields;
}

const all = (bytes: Uint8Array, field: number): Uint8Array[] =>
  fieldsOf(bytes).flatMap(([number, value]) => (number === field && value instanceof Uint8Array ? [value] : []));
const one = (bytes: Uint8Array, field: number): number | Uint8Array | undefined =>
  fieldsOf(bytes).find(([number]) => number === field)?.[1];
const text = (value: unknown): string => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : '');
const hex = (value: unknown): string => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : '');

/** An AnyValue: string (1), bool (2), int (3) or double (4). */
function anyValue(bytes: Uint8Array): OtlpValue {
  const [number, value] = fieldsOf(bytes)[0] ?? [0, 0];
  if (number === 1) return { stringValue: text(value) };
  if (number === 2) return { boolValue: value === 1 };
  if (number === 3) return { intValue: Number(value) };
  return { doubleValue: value instanceof Uint8Array ? Buffer.from(value).readDoubleLE() : 0 };
}

const keyValues = (bytes: Uint8Array, field: number): OtlpAttribute[] =>
  all(bytes, field).map((pair) => ({
    key: text(one(pair, 1)),
    value: anyValue((one(pair, 2) as Uint8Array | undefined) ?? new Uint8Array()),
  }));

/** An ExportTraceServiceRequest in binary protobuf, as its JSON form would have it. */
function exportOfProtobuf(body: Uint8Array): OtlpExport {
  return {
    resourceSpans: all(body, 1).map((resourceSpans) => ({
      resource: { attributes: all(resourceSpans, 1).flatMap((resource) => keyValues(resource, 1)) },
      scopeSpans: all(resourceSpans, 2).map((scope) => ({
        spans: all(scope, 2).map((span) => ({
          traceId: hex(one(span, 1)),
          spanId: hex(one(span, 2)),
          parentSpanId: hex(one(span, 4)),
          name: text(one(span, 5)),
          kind: Number(one(span, 6) ?? 0),
          attributes: keyValues(span, 9),
          status: { code: Number(all(span, 15).map((status) => one(status, 3))[0] ?? 0) },
        })),
      })),
    })),
  };
}

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
      const type = req.headers['content-type'] ?? '';
      contentTypes.push(type);
      const body = Buffer.concat(chunks);
      const protobuf = type.startsWith('application/x-protobuf');
      spans.push(...spansOfExport(protobuf ? exportOfProtobuf(body) : (JSON.parse(body.toString('utf8')) as OtlpExport)));
      // An empty answer is a full success in either encoding.
      res.writeHead(200, { 'content-type': protobuf ? 'application/x-protobuf' : 'application/json' }).end(protobuf ? '' : '{}');
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
