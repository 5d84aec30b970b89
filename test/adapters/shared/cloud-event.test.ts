// The envelope as the service writes it, held to the cloudevents SDK: the same bytes as the
// SDK's own serialisation of the same attributes, and valid by the SDK's schema, for any pet
// and any event type.
import { expect } from 'chai';
import { CloudEvent } from 'cloudevents';
import fc from 'fast-check';
import { cloudEventJson } from '../../../src/adapters/shared/cloud-event.js';
import { PET_EVENT_TYPES, PET_STATUSES, type CategoryId, type PetEvent, type PetId, type PetName } from '../../../src/domain/index.js';

const events: fc.Arbitrary<PetEvent> = fc
  .record({
    id: fc.uuid(),
    sequence: fc.nat(),
    time: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
    type: fc.constantFrom(...PET_EVENT_TYPES),
    petId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    name: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }),
    categoryId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    status: fc.constantFrom(...PET_STATUSES),
  })
  .map(({ id, sequence, time, type, petId, name, categoryId, status }) => ({
    id,
    sequence,
    time,
    type,
    petId: petId as PetId,
    data:
      type === 'petstore.pet.deleted'
        ? { id: petId as PetId }
        : { id: petId as PetId, name: name as PetName, categoryId: categoryId as CategoryId, status },
  }));

const sources = fc.constantFrom('/petstore', 'https://shop.example/petstore', 'urn:petstore:eu-1');

describe('the CloudEvents envelope', () => {
  it("is, for any event, the SDK's structured JSON of the same attributes, byte for byte, and valid by the SDK", () => {
    fc.assert(
      fc.property(events, sources, (event, source) => {
        const written = cloudEventJson(event, source);
        const bySdk = new CloudEvent({
          specversion: '1.0',
          id: event.id,
          source,
          type: event.type,
          subject: String(event.petId),
          time: event.time.toISOString(),
          datacontenttype: 'application/json',
          data: event.data,
        });
        expect(written).to.equal(JSON.stringify(bySdk));
        expect(new CloudEvent(JSON.parse(written) as Record<string, unknown>).validate()).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });
});
