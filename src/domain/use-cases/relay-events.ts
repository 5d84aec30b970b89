// One pass of the relay: the events waiting in the outbox, oldest first, handed to every
// transport in turn, then marked relayed. A transport that cannot take them ends the pass
// before anything is marked, so the next pass hands the same events on again: at least once,
// with the same ids, and in outbox order for every transport.
import type { EventOutbox, EventTransport } from '../ports/index.js';
import type { PetEvent } from '../events.js';
import type { Clock } from '../ports/index.js';

/**
 * What a pass did: the events it relayed (and whether its batch was full, so that more may
 * wait), or the transport that could not take them.
 */
export type RelayPass =
  | { readonly outcome: 'relayed'; readonly events: readonly PetEvent[]; readonly full: boolean }
  | { readonly outcome: 'refused'; readonly transport: string; readonly events: readonly PetEvent[]; readonly fault: unknown };

/** A pass over at most its batch of waiting events; none relayed when none waited. A rejection is a fault of the outbox. */
export type RelayEvents = () => Promise<RelayPass>;

/** The relay's pass over `outbox` to `transports`, marking with times from `clock`. */
export const relayEvents =
  (outbox: EventOutbox, transports: readonly EventTransport[], clock: Clock, batchSize: number): RelayEvents =>
  async () => {
    const events = await outbox.pending(batchSize);
    if (events.length === 0) return { outcome: 'relayed', events, full: false };
    for (const transport of transports) {
      try {
        await transport.publish(events);
      } catch (fault) {
        return { outcome: 'refused', transport: transport.name, events, fault };
      }
    }
    await outbox.markRelayed(
      events.map((event) => event.sequence),
      clock.now(),
    );
    return { outcome: 'relayed', events, full: events.length === batchSize };
  };
