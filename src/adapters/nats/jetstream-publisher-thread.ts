// The worker thread that publishes change events to JetStream for JetStreamThreadTransport:
// the NATS client, its acknowledgements and the CloudEvents envelopes cost more per event
// than the change itself, and here they run beside the event loop that serves HTTP, on
// another core, instead of on it. Messages in: publish and close; out: what became of them.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { describeFault } from '../../domain/fault-description.js';
import { openJetStreamTransport } from './jetstream-transport.js';
import { PUBLISHER_NICENESS, type PublisherReply, type PublisherRequest, type PublisherSettings } from './jetstream-thread-messages.js';

// The NATS client makes an Error for every request it settles, answered or not; capturing a
// stack for each was a fifth of this thread's work. No stack leaves this thread (a fault
// crosses as its name and message), so none is captured here.
Error.stackTraceLimit = 0;

// Serving HTTP comes first: on a busy machine this thread takes the time the others leave,
// instead of taking the core of the event loop while that loop waits for a disk flush, and
// an event waits a little longer rather than a request. On Linux a priority is a thread's
// own (0 names the calling thread); elsewhere it would be the whole process's, so it is left.
// A system that refuses it only loses the preference: the thread publishes all the same.
if (process.platform === 'linux') {
  try {
    setPriority(PUBLISHER_NICENESS);
  } catch {
    // The thread keeps the process's priority.
  }
}

const port = parentPort!;
const settings = workerData as PublisherSettings;
const reply = (message: PublisherReply): void => port.postMessage(message);

try {
  const transport = await openJetStreamTransport({
    ...settings,
    events: {
      lost: (fault) => reply({ kind: 'lost', fault: describeFault(fault) }),
      restored: () => reply({ kind: 'restored' }),
    },
  });
  port.on('message', (request: PublisherRequest) => {
    if (request.kind === 'publish') {
      transport.publish(request.events).then(
        () => reply({ kind: 'published', id: request.id }),
        (fault: unknown) => reply({ kind: 'refused', id: request.id, fault: describeFault(fault) }),
      );
    } else {
      void transport.close().finally(() => {
        reply({ kind: 'closed' });
        port.close();
      });
    }
  });
  reply({ kind: 'opened' });
} catch (fault) {
  reply({ kind: 'failed', fault: describeFault(fault) });
  port.close();
}
