// createPetStore's `tracing` option: the store traces as a serving process does, its spans
// exported to the OTLP endpoint OpenTelemetry's variables name (here a receiver of the test's
// own), and each event keeps the trace context of the change that made it; closing it leaves
// an OpenTelemetry SDK that the app registered first as it was.
import { context, propagation, type ProxyTracerProvider, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { startHttpServer } from '../src/adapters/http/http-server.js';
import { createPetStore, type PetStore } from '../src/composition/pet-store.js';
import type { PetEvent } from '../src/domain/index.js';
import { eventually } from './support/eventually.js';
import { clientFor } from './support/http-client.js';
import { type OtlpReceiver, startOtlpReceiver } from './support/otlp-receiver.js';
import { TEST_API_KEY } from './support/test-server.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN_ID = 'b7ad6b7169203331';
const OTEL_VARIABLES = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_SERVICE_NAME'] as const;

/** The events a subscriber of `store` hears once a pet named `name` is created over HTTP, with a caller's traceparent. */
async function createdWithTraceparent(store: PetStore, name: string): Promise<PetEvent[]> {
  const heard: PetEvent[] = [];
  store.events.subscribe((event) => void heard.push(event));
  const server = await startHttpServer(store.app.callback(), { host: '127.0.0.1', port: 0 });
  try {
    const created = await clientFor(server.url, TEST_API_KEY).send('/v1/pets', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01` },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    expect(created.status, created.text).to.equal(201);
    await eventually(() => heard.length > 0, 'the subscriber hears the creation', 1000);
  } finally {
    await server.close();
  }
  return heard;
}

describe('createPetStore with tracing', () => {
  let otlp: OtlpReceiver | undefined;
  let petStore: PetStore | undefined;
  const saved = Object.fromEntries(OTEL_VARIABLES.map((name) => [name, process.env[name]]));

  afterEach(async () => {
    await petStore?.close();
    await otlp?.close();
    for (const name of OTEL_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("exports a request's spans to the OTLP endpoint of process.env, and records its use case's context with the event", async () => {
    otlp = await startOtlpReceiver();
    process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] = otlp.tracesUrl;
    process.env['OTEL_SERVICE_NAME'] = 'embedded-petstore';
    petStore = await createPetStore({ apiKeys: [TEST_API_KEY], tracing: true });
    const heard = await createdWithTraceparent(petStore, 'Traced');
    // Closing the store exports the spans that wait.
    await petStore.close();
    const ofTrace = (name: string) => otlp!.spans.find((span) => span.traceId === TRACE_ID && span.name === name);
    const request = ofTrace('POST /v1/pets');
    expect(request).to.include({ kind: 2, parentSpanId: CALLER_SPAN_ID, service: 'embedded-petstore' });
    const useCase = ofTrace('createPet');
    expect(useCase?.parentSpanId).to.equal(request!.spanId);
    expect(heard[0]?.traceContext).to.deep.equal({ traceparent: `00-${TRACE_ID}-${useCase!.spanId}-01` });
  });

  it('records no trace context without it', async () => {
    petStore = await createPetStore({ apiKeys: [TEST_API_KEY], tracing: false });
    const heard = await createdWithTraceparent(petStore, 'Untraced');
    expect(heard[0]).not.to.have.property('traceContext');
  });

  it('leaves the OpenTelemetry SDK an app registered before it as the global one, when it closes', async () => {
    const apps = new NodeTracerProvider();
    apps.register();
    try {
      petStore = await createPetStore({ tracing: true });
      await petStore.close();
      expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate()).to.equal(apps);
      // The app's context manager still works: a span set active is active within.
      const span = apps.getTracer('app').startSpan('app span');
      context.with(trace.setSpan(context.active(), span), () => expect(trace.getActiveSpan()).to.equal(span));
      span.end();
    } finally {
      await apps.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    }
  });

  it('refuses a tracing option that is not true or false, with a TypeError naming it', async () => {
    const err = await createPetStore({ tracing: 'on' as unknown as boolean }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(TypeError);
    expect((err as Error).message).to.equal('createPetStore: tracing must be true or false');
  });
});
