// The JetStream transport of a serving process: JetStreamTransport run in a worker thread
// (jetstream-publisher-thread.ts), so that the NATS client's work per event is done on another
// core than the one that serves HTTP. The relay hands each batch over and waits for the
// thread's answer, as it waits for the transport's own: nothing about delivery changes.
import { Worker } from 'node:worker_threads';
import type { EventTransport, PetEvent } from '../../domain/index.js';
import type { JetStreamTransportOptions } from './jetstream-transport.js';
import type { CrossedFault, PublisherReply, PublisherRequest, PublisherSettings } from './jetstream-thread-messages.js';

/** The fault the thread reported, as an Error of the same name. */
const faultOf = ({ type, message }: CrossedFault): Error => Object.assign(new Error(message), { name: type });

/** The thread's module: compiled beside this one. */
const PUBLISHER = new URL('./jetstream-publisher-thread.js', import.meta.url);

export class JetStreamThreadTransport implements EventTransport {
  readonly name = 'nats';
  private readonly waiting = new Map<number, { resolve(): void; reject(fault: Error): void }>();
  private nextId = 0;
  private closed: Promise<void> | undefined;
  /** Why the thread is gone, once it is: every publication after fails with it. */
  private ended: Error | undefined;

  private constructor(private readonly worker: Worker) {}

  /** Starts the thread; resolves once it has opened its transport, rejects as openJetStreamTransport does. */
  static open(options: JetStreamTransportOptions): Promise<JetStreamThreadTransport> {
    const { url, stream, source, events } = options;
    const worker = new Worker(PUBLISHER, { workerData: { url, stream, source } satisfies PublisherSettings });
    const transport = new JetStreamThreadTransport(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (reply: PublisherReply) => {
        switch (reply.kind) {
          case 'opened':
            return resolve(transport);
          case 'failed':
            return reject(faultOf(reply.fault));
          case 'lost':
            return events?.lost(faultOf(reply.fault));
          case 'restored':
            return events?.restored();
          case 'published':
          case 'refused':
            return transport.settle(reply);
          case 'closed':
            return undefined;
        }
      });
      worker.on('error', (fault) => {
        reject(fault);
        transport.failAll(fault);
      });
      worker.on('exit', () => {
        transport.ended = new Error('the JetStream publisher thread stopped');
        transport.failAll(transport.ended);
        reject(transport.ended);
      });
    });
  }

  publish(events: readonly PetEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    if (this.closed !== undefined) return Promise.reject(new Error('the JetStream transport is closed'));
    if (this.ended !== undefined) return Promise.reject(this.ended);
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ kind: 'publish', id, events } satisfies PublisherRequest);
    });
  }

  /** Drains the thread's connection, then lets the thread end. */
  close(): Promise<void> {
    this.closed ??=
      this.ended !== undefined
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.worker.once('exit', () => resolve());
            this.worker.postMessage({ kind: 'close' } satisfies PublisherRequest);
          });
    return this.closed;
  }

  private settle(reply: Extract<PublisherReply, { id: number }>): void {
    const waiter = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (reply.kind === 'published') waiter?.resolve();
    else waiter?.reject(faultOf(reply.fault));
  }

  private failAll(fault: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(fault);
    this.waiting.clear();
  }
}
