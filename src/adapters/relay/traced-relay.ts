// The relay's work as spans, when tracing is on: one per pass of a transport that found events (a trace of its
// own: a pass carries the events of many requests), and one per event a broker transport publishes, the
// child of the trace context stored with the event, so that the publication joins the trace of
// the request that made the change (the message carries that context to the consumer).
import type { EventTransport, RelayEvents } from '../../domain/index.js';
import type { Tracing } from '../shared/tracing.js';

/**
 * `relay` with each pass that found events in a span of its own: how many it took and what
 * became of them. An idle pass (the poll's, every second) makes none.
 */
export const tracedPasses =
  (tracing: Pick<Tracing, 'startSpan'>, relay: RelayEvents): RelayEvents =>
  async () => {
    const startTime = performance.timeOrigin + performance.now();
    const pass = await relay();
    if (pass.events.length === 0) return pass;
    const span = tracing.startSpan('relay pass', {
      parent: null,
      startTime,
      attributes: {
        'petstore.relay.transport': pass.transport,
        'petstore.relay.events': pass.events.length,
        'petstore.relay.outcome': pass.outcome,
      },
    });
    if (pass.outcome === 'refused') span.fail(pass.fault);
    span.end();
    return pass;
  };

/**
 * `transport` (a broker: `system` is its name in the messaging conventions, such as `nats`)
 * with a producer span per event it publishes, from the hand-over to the broker's acknowledgement.
 */
export const tracedPublications = (tracing: Pick<Tracing, 'startSpan'>, transport: EventTransport, system: string): EventTransport => ({
  name: transport.name,
  async publish(events) {
    const spans = events.map((event) =>
      tracing.startSpan(`send ${event.type}`, {
        kind: 'producer',
        parent: event.traceContext ?? null,
        attributes: {
          'messaging.system': system,
          'messaging.operation.type': 'send',
          'messaging.destination.name': event.type,
          'messaging.message.id': event.id,
        },
      }),
    );
    try {
      await transport.publish(events);
    } catch (fault) {
      for (const span of spans) span.fail(fault);
      throw fault;
    } finally {
      for (const span of spans) span.end();
    }
  },
});
