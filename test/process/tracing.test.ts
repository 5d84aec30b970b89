// Traces from the compiled server to OTLP/HTTP, followed across systems: one PATCH with a
// `traceparent` is followed to its HTTP span and its use case's, to the CloudEvent (and the
// message's headers) that a NATS consumer receives, to the webhook request (its body and its
// headers), and to the publication and attempt spans, all under the trace id the request gave,
// on SQLite and on PostgreSQL. The spans are what a real OTLP/HTTP receiver
// (test/support/otlp-receiver.ts) decoded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { expect } from 'chai';
import { loadCommands, runCommand } from '../support/command-line.js';
import { eventually } from '../support/eventually.js';
import { clientFor } from '../support/http-client.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../support/nats.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../support/postgres.js';
import { baseUrlOf, logLinesOf, type ServerProcess, spawnServer, stopIfRunning, timeoutForProcesses } from '../support/server-process.js';
import { tempDir } from '../support/temp-dir.js';

const KEY = 'tracing-test-key-0123456789abcdef';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;
const TRACESTATE = 'caller=t61rcWkgMzE';

interface Received {
  readonly headers: IncomingHttpHeaders | Record<string, string>;
  readonly body: string;
}

async function startWebhookReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/** The parent span id a traceparent names (its third field). */
const parentIdOf = (traceparent: unknown): string => String(traceparent).split('-')[2] ?? '';

describeWithNatsServer('traces of the compiled server', () => {
  before(loadCommands);
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  let otlp: OtlpReceiver | undefined;
  let nats: PrivateNats | undefined;
  let consumer: NatsConnection | undefined;
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
  let schema: TestSchema | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    await consumer?.close();
    await nats?.remove();
    await otlp?.close();
    hooks?.server.close();
    await schema?.drop();
    schema = undefined;
    dir.remove();
  });

  /** The PATCH followed across systems, with the server's data in the database `db` (PETSTORE_DB). */
  async function followAPatch(db: string): Promise<void> {
    otlp = await startOtlpReceiver();
    nats = await startPrivateNats();
    hooks = await startWebhookReceiver();
    const env = {
      PETSTORE_DB: db,
      PETSTORE_API_KEYS: KEY,
      PETSTORE_NATS_URL: nats.url,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlp.tracesUrl,
      OTEL_SERVICE_NAME: 'petstore-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    };
    const added = await runCommand(['webhooks', 'add', hooks.url, '--events', 'petstore.pet.updated', '--json'], env);
    expect(added.code, added.stderr).to.equal(0);
    consumer = await connect({ servers: nats.url });
    const messages: Msg[] = [];
    consumer.subscribe('petstore.pet.updated', { callback: (_error, message) => void messages.push(message) });
    await consumer.flush();

    server = spawnServer(env);
    const api = clientFor(await baseUrlOf(server), KEY);
    const pet = (await api.postJson('/v1/pets', { name: 'Traced', categoryId: 2 })).json as { id: number };
    const patched = await api.send(`/v1/pets/${pet.id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json', traceparent: TRACEPARENT, tracestate: TRACESTATE },
      body: JSON.stringify({ status: 'pending' }),
    });
    expect(patched.status).to.equal(200);

    const ofTrace = (name: string): ReceivedSpan | undefined => otlp!.spans.find((span) => span.traceId === TRACE_ID && span.name === name);
    await eventually(() => messages.length > 0, 'the NATS consumer receives the update', 1000);
    await eventually(() => hooks!.received.length > 0, 'the webhook receiver receives the update', 1000);
    await eventually(
      () => ofTrace('webhook attempt') !== undefined && ofTrace('send petstore.pet.updated') !== undefined,
      'the spans are exported',
      1000,
    );

    // The HTTP span: a server span named after the route template, the child of the caller's span.
    const http = ofTrace('PATCH /v1/pets/:petId')!;
    expect(http, 'the HTTP span').to.not.equal(undefined);
    expect(http).to.include({ kind: 2, parentSpanId: CALLER_SPAN_ID, service: 'petstore-under-test' });
    expect(http.attributes).to.include({
      'http.request.method': 'PATCH',
      'http.route': '/v1/pets/:petId',
      'http.response.status_code': 200,
      'url.path': `/v1/pets/${pet.id}`,
    });
    // The use case's span, in which the change recorded its event's trace context.
    const useCase = ofTrace('updatePet')!;
    expect(useCase.parentSpanId).to.equal(http.spanId);

    // The CloudEvent on NATS, and the message's headers, carry the stored context.
    const message = messages[0]!;
    const onNats = message.json<{ id: string; traceparent?: string; tracestate?: string }>();
    expect(onNats.traceparent).to.equal(`00-${TRACE_ID}-${useCase.spanId}-01`);
    expect(onNats.tracestate).to.equal(TRACESTATE);
    expect(message.headers?.get('traceparent')).to.equal(onNats.traceparent);
    expect(message.headers?.get('tracestate')).to.equal(TRACESTATE);

    // The webhook request: its CloudEvent and its W3C headers.
    const delivered = hooks.received[0]!;
    const onWebhook = JSON.parse(delivered.body) as { id: string; traceparent?: string; tracestate?: string };
    expect(onWebhook.id).to.equal(onNats.id);
    expect(onWebhook.traceparent).to.equal(onNats.traceparent);
    expect(delivered.headers['traceparent']).to.equal(onNats.traceparent);
    expect(delivered.headers['tracestate']).to.equal(TRACESTATE);

    // The publication and the attempt: children of the stored context, in the request's trace.
    const publication = ofTrace('send petstore.pet.updated')!;
    expect(publication).to.include({ kind: 4, parentSpanId: parentIdOf(onNats.traceparent) });
    expect(publication.attributes).to.include({ 'messaging.system': 'nats', 'messaging.message.id': onNats.id });
    const attempt = ofTrace('webhook attempt')!;
    expect(attempt).to.include({ kind: 3, parentSpanId: parentIdOf(onNats.traceparent) });
    expect(attempt.attributes).to.include({ 'http.response.status_code': 204, 'messaging.message.id': onNats.id });

    // The relay's passes are traces of their own; the exporter spoke OTLP's JSON, as it was told.
    expect(otlp.spans.some((span) => span.name === 'relay pass' && span.parentSpanId === '')).to.equal(true);
    expect(otlp.contentTypes.every((type) => type.startsWith('application/json'))).to.equal(true);
    // The request's log line names its trace and span.
    const line = logLinesOf(server).find((logged) => logged['msg'] === 'request' && logged['method'] === 'PATCH');
    expect(line).to.include({ trace_id: TRACE_ID, span_id: http.spanId });
  }

  it('follows a PATCH with a traceparent to its spans, the CloudEvent on NATS and on a webhook, and the publication and attempt spans', async function () {
    this.timeout(timeoutForProcesses(1) + 20_000);
    await followAPatch(join(dir.path, 'petstore.db'));
  });

  describeWithPostgres('on PostgreSQL', () => {
    it('follows a PATCH with a traceparent to the CloudEvent on NATS and on a webhook, whose context the change stored', async function () {
      this.timeout(timeoutForProcesses(1) + 20_000);
      schema = await createTestSchema();
      await followAPatch(schema.url);
    });
  });

  it('starts a trace for a request without a traceparent, which its use case joins, exported in protobuf', async function () {
    this.timeout(timeoutForProcesses(1) + 20_000);
    otlp = await startOtlpReceiver();
    const env = {
      PETSTORE_DB: join(dir.path, 'petstore.db'),
      PETSTORE_API_KEYS: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.tracesUrl.replace(/\/v1\/traces$/, ''),
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    server = spawnServer(env);
    const api = clientFor(await baseUrlOf(server), KEY);
    expect((await api.postJson('/v1/pets', { name: 'Rooted', categoryId: 2 })).status).to.equal(201);
    const create = () => otlp!.spans.find((span) => span.name === 'POST /v1/pets');
    await eventually(() => create() !== undefined, 'the HTTP span is exported', 1000);
    expect(create()).to.include({ parentSpanId: '', service: 'petstore' });
    expect(create()!.attributes).to.include({ 'http.route': '/v1/pets', 'http.response.status_code': 201 });
    expect(otlp.spans.find((span) => span.name === 'createPet')?.traceId).to.equal(create()!.traceId);
    // OTLP's default encoding, binary protobuf.
    expect(otlp.contentTypes.every((type) => type.startsWith('application/x-protobuf'))).to.equal(true);
  });
});

// Without an OTLP endpoint nothing of OpenTelemetry is loaded (docs/decisions/0029-tracing-sdk-loaded-only-when-configured.md).
describe('tracing off', () => {
  let dir: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await stopIfRunning(server);
    dir.remove();
  });

  it('loads no module of OpenTelemetry unless an OTLP endpoint is configured, and loads the SDK when one is', async function () {
    this.timeout(timeoutForProcesses(2));
    const preload = join(process.cwd(), 'test', 'support', 'report-opentelemetry-loaded.mjs');
    const loaded = async (env: Record<string, string>, report: string): Promise<string> => {
      const reportFile = join(dir.path, report);
      writeFileSync(reportFile, '');
      server = spawnServer({
        PETSTORE_DB: join(dir.path, 'petstore.db'),
        PETSTORE_API_KEYS: KEY,
        NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`,
        OPENTELEMETRY_LOAD_REPORT: reportFile,
        ...env,
      });
      const api = clientFor(await baseUrlOf(server), KEY);
      expect((await api.postJson('/v1/pets', { name: 'Untraced', categoryId: 1 })).status).to.equal(201);
      expect((await api.get('/v1/pets')).status).to.equal(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
      return readFileSync(reportFile, 'utf8');
    };
    expect(await loaded({}, 'off.txt')).to.equal('');
    // Nothing listens on port 1: the spans are lost, the service serves all the same (and the
    // standard OTEL_EXPORTER_OTLP_TIMEOUT cuts the stop's wait for the last export to 0.5 s).
    expect(await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_TIMEOUT: '500' }, 'on.txt')).to.contain(
      '/@opentelemetry/sdk-trace-node/',
    );
  });
});
