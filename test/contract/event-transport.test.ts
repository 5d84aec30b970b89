// The EventTransport contract, run against every transport of the relay: the subscribers of
// this process, webhooks (queued in a store, with one endpoint that wants every event), and
// NATS JetStream on a nats-server of the test's own, in the caller's thread and in the worker
// thread a serving process runs it in (compiled code only: taken from dist/).
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { MemoryWebhookStore } from '../../src/adapters/memory/memory-webhook-store.js';
import { openJetStreamTransport, type JetStreamTransportOptions } from '../../src/adapters/nats/jetstream-transport.js';
import type * as ThreadTransport from '../../src/adapters/nats/jetstream-thread-transport.js';
import { InProcessSubscribers } from '../../src/adapters/relay/in-process-subscribers.js';
import { generateWebhookSecret } from '../../src/adapters/webhooks/webhook-secret.js';
import { webhooksTransport } from '../../src/adapters/webhooks/webhooks-transport.js';
import type { EventTransport, WebhookUrl } from '../../src/domain/index.js';
import { describeWithNatsServer, type PrivateNats, startPrivateNats } from '../support/nats.js';
import { eventTransportContract } from './event-transport.contract.js';

const SOURCE = '/petstore-contract';

eventTransportContract('in-process subscribers', () => {
  const transport = new InProcessSubscribers();
  const received: string[] = [];
  transport.subscribe((event) => void received.push(event.id));
  return Promise.resolve({ transport, received: () => Promise.resolve([...received]), close: () => Promise.resolve() });
});

eventTransportContract('webhooks', async () => {
  const store = new MemoryWebhookStore();
  const endpoint = await store.add({
    url: 'https://hooks.example/pets' as WebhookUrl,
    eventTypes: [],
    secret: generateWebhookSecret(),
    createdAt: new Date('2030-01-01T00:00:00Z'),
  });
  return {
    transport: webhooksTransport(store, { now: () => new Date('2030-01-01T00:00:01Z') }, SOURCE),
    received: async () => [...(await store.deliveries(endpoint.id, 100))].sort((a, b) => a.id - b.id).map((d) => d.eventId),
    close: async () => {},
  };
});

type OpenTransport = (options: JetStreamTransportOptions) => Promise<EventTransport & { close(): Promise<void> }>;

const COMPILED_THREAD_TRANSPORT = new URL('../../dist/adapters/nats/jetstream-thread-transport.js', import.meta.url);
const openInThread: OpenTransport = async (options) =>
  ((await import(COMPILED_THREAD_TRANSPORT.href)) as typeof ThreadTransport).JetStreamThreadTransport.open(options);

describeWithNatsServer('EventTransport contract on NATS JetStream', () => {
  let nats: PrivateNats;
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  before(async () => {
    nats = await startPrivateNats();
    admin = await connect({ servers: nats.url });
    jsm = await jetstreamManager(admin);
  });
  after(async () => {
    await admin?.close();
    await nats?.remove();
  });

  const onJetStream = (open: OpenTransport) => async () => {
    const stream = `CONTRACT_${randomUUID().slice(0, 8)}`;
    const transport = await open({ url: nats.url, stream, source: SOURCE });
    return {
      transport,
      received: async () => {
        const { state } = await jsm.streams.info(stream);
        const ids: string[] = [];
        for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
          ids.push((await jsm.streams.getMessage(stream, { seq }))!.header.get('Nats-Msg-Id'));
        }
        return ids;
      },
      close: async () => {
        await transport.close();
        await jsm.streams.delete(stream);
      },
    };
  };

  eventTransportContract('NATS JetStream', onJetStream(openJetStreamTransport));
  if (existsSync(COMPILED_THREAD_TRANSPORT)) eventTransportContract('NATS JetStream in a worker thread', onJetStream(openInThread));
  else
    describe.skip('EventTransport contract: NATS JetStream in a worker thread (skipped: dist/ is not built; run npm run build)', () =>
      undefined);
});
