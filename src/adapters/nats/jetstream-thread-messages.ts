// What JetStreamThreadTransport and its publisher thread say to each other.
import type { PetEvent } from '../../domain/index.js';
import type { describeFault } from '../../domain/fault-description.js';
import type { JetStreamTransportOptions } from './jetstream-transport.js';

/**
 * The publisher thread's niceness (Linux): the scheduler gives it a core's time only where the
 * threads at the default priority (the event loop serving HTTP) leave some (docs/decisions/0021-publisher-thread-at-the-lowest-priority.md).
 */
export const PUBLISHER_NICENESS = 19;

/** What the thread is started with: JetStreamTransportOptions without the callbacks, which cannot cross. */
export type PublisherSettings = Omit<JetStreamTransportOptions, 'events'>;

/** A fault as it crosses the thread, as describeFault tells it: its name and message (never a URL: the transport's messages name none). */
export type CrossedFault = ReturnType<typeof describeFault>;

export type PublisherRequest =
  { readonly kind: 'publish'; readonly id: number; readonly events: readonly PetEvent[] } | { readonly kind: 'close' };

export type PublisherReply =
  | { readonly kind: 'opened' }
  | { readonly kind: 'failed'; readonly fault: CrossedFault }
  | { readonly kind: 'published'; readonly id: number }
  | { readonly kind: 'refused'; readonly id: number; readonly fault: CrossedFault }
  | { readonly kind: 'lost'; readonly fault: CrossedFault }
  | { readonly kind: 'restored' }
  | { readonly kind: 'closed' };
