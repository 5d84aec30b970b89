// One pass of the relay for one transport: the events after its position in the outbox, oldest
// first, handed to it, then its position moved past them (or, while it wants none, its position
// moved past them unread). A refusal ends the pass before the
// position moves, so the next pass hands the same events on again: at least once, with the
// same ids, and in outbox order. Each transport has its passes and its position: none waits
// for another.
import type { Clock, EventOutbox, EventTransport } from '../ports/index.js';
import type { PetEvent } from '../events.js';

/**
 * What a pass did for its transport: the events it handed on (and whether its batch was full,
 * so that more may wait), or the events the transport refused.
 */
export type RelayPass =
  | {
      readonly outcome: 'relayed';
      readonly transport: string;
      readonly events: readonly PetEvent[];
      readonly full: boolean;
      /** The transport wanted none: its position moved past the events unread. */
      readonly wantedNone?: true;
    }
  | { readonly outcome: 'refused'; readonly transport: string; readonly events: readonly PetEvent[]; readonly fault: unknown };

/** A pass over at most its batch of the events waiting for its transport; none when none waited. A rejection is a fault of the outbox. */
export type RelayEvents = () => Promise<RelayPass>;

/** The relay's pass to `transport` over `outbox`, marking with times from `clock`. */
export const relayEvents =
  (outbox: EventOutbox, transport: EventTransport, clock: Clock, batchSize: number): RelayEvents =>
  async () => {
    const { name } = transport;
    // Nothing would come of reading the events for a transport that wants none. It is asked
    // again once the newest is taken: an event recorded after a subscriber (an endpoint) came
    // is then never passed over. A transport that wants events costs one question, no more.
    const wantsNone = () => transport.wantsNone?.().catch(() => false) ?? Promise.resolve(false);
    if (await wantsNone()) {
      const newest = await outbox.newestPosition();
      if (await wantsNone()) {
        await outbox.markTaken(name, newest, clock.now());
        return { outcome: 'relayed', transport: name, events: [], full: false, wantedNone: true };
      }
    }
    const { events, through } = await outbox.read(name, batchSize);
    if (events.length === 0) return { outcome: 'relayed', transport: name, events, full: false };
    try {
      await transport.publish(events);
    } catch (fault) {
      return { outcome: 'refused', transport: name, events, fault };
    }
    await outbox.markTaken(name, through, clock.now());
    return { outcome: 'relayed', transport: name, events, full: events.length === batchSize };
  };
