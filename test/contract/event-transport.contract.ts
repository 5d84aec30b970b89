// The EventTransport contract: what every transport of the relay does, run against each of
// them. A transport under test comes with a way to read what its destination holds (the
// subscribers' calls, the queued webhook deliveries, the stream's messages), as event ids.
import { expect } from 'chai';
import { type EventTransport, petCreated, petDeleted, type PetId, petUpdated } from '../../src/domain/index.js';
import { eventOf, pet } from '../support/pet-events.js';

/** A transport, and the ids of the events its destination holds, in the order it holds them. */
export interface TransportUnderTest {
  readonly transport: EventTransport;
  received(): Promise<readonly string[]>;
  close(): Promise<void>;
}

/** The contract, for the transport that `open` makes fresh for each test. */
export function eventTransportContract(name: string, open: () => Promise<TransportUnderTest>): void {
  describe(`EventTransport contract: ${name}`, () => {
    let subject: TransportUnderTest;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(() => subject.close());

    it('has a name for metrics and logs', () => {
      expect(subject.transport.name).to.match(/^[a-z][a-z0-9_-]*$/);
    });

    it('holds every event of a batch once publish resolves, in outbox order', async () => {
      const events = [
        eventOf(petCreated(pet(1, 'Rex'))),
        eventOf(petCreated(pet(2, 'Tom'))),
        eventOf(petUpdated(pet(1, 'Rex II'))),
        eventOf(petDeleted(2 as PetId)),
      ];
      await subject.transport.publish(events);
      expect(await subject.received()).to.deep.equal(events.map((event) => event.id));
      const next = [eventOf(petUpdated(pet(1, 'Rex III')))];
      await subject.transport.publish(next);
      expect(await subject.received()).to.deep.equal([...events, ...next].map((event) => event.id));
    });

    it('takes an event it already took, as the relay sends it again after a failure, and still holds it', async () => {
      const first = eventOf(petCreated(pet(3, 'Kit')));
      const second = eventOf(petUpdated(pet(3, 'Kat')));
      await subject.transport.publish([first]);
      await subject.transport.publish([first, second]);
      const received = await subject.received();
      expect(received.filter((id) => id !== first.id && id !== second.id)).to.deep.equal([]);
      expect(received.indexOf(first.id), 'the first event before the second').to.be.within(0, received.indexOf(second.id) - 1);
    });

    it('takes an empty batch and holds nothing more', async () => {
      await subject.transport.publish([]);
      expect(await subject.received()).to.deep.equal([]);
    });
  });
}
