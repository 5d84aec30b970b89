// What JetStreamThreadTransport and its publisher thread say to each other.
import type { PetEvent } from '../../domain/index.js';

/** What the thread is started with: JetStreamTransportOptions without the callbacks, which cannot cross. */
export interface PublisherSettings {
  readonly url: string;
  readonly stream: string;
  readonly source: string;
}

/** A fault as it crosses the thread: its name and message (never a URL: the transport's messages name none). */
export interface CrossedFault {
  readonly type: string;
  readonly message: string;
}

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
