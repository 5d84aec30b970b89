// The webhook endpoint of an --outage run: the bench's own, on a free port of 127.0.0.1. It checks
// no signature (the work measured is the service's, not a receiver's): it reads the delivery's
// CloudEvent, answers 204 after its delay, and notes when it answered, per event id.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the endpoint got of one event. */
export interface ReceivedEvent {
  /** The event's type and the pet's id (the CloudEvent's `type` and `subject`). */
  readonly type: string;
  readonly about: string;
  /** When its first delivery was answered 2xx, in ms since the epoch. */
  readonly answeredAtMs: number;
  /** How many deliveries of it came (more than 1: a duplicate). */
  deliveries: number;
}

export interface WebhookReceiver {
  /** The URL to register (`petstore webhooks add`). */
  readonly url: string;
  /** How long it takes to answer each delivery, in ms: may change while it runs. */
  delayMs: number;
  /** By event id (the `webhook-id`). */
  readonly received: ReadonlyMap<string, ReceivedEvent>;
  /** The most deliveries it held unanswered at once. */
  readonly peakConcurrent: number;
  stop(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

export async function startWebhookReceiver(delayMs: number): Promise<WebhookReceiver> {
  const received = new Map<string, ReceivedEvent>();
  let open = 0;
  const receiver = {
    url: '',
    delayMs,
    received,
    peakConcurrent: 0,
    stop: async (): Promise<void> => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const answer = (id: string, body: string, res: ServerResponse): void => {
    open -= 1;
    res.writeHead(204).end();
    const seen = received.get(id);
    if (seen !== undefined) {
      seen.deliveries += 1;
      return;
    }
    const event = JSON.parse(body) as { type?: unknown; subject?: unknown };
    received.set(id, { type: String(event.type), about: String(event.subject), answeredAtMs: now(), deliveries: 1 });
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open += 1;
    receiver.peakConcurrent = Math.max(receiver.peakConcurrent, open);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => setTimeout(() => answer(String(req.headers['webhook-id']), body, res), receiver.delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
