// The change events as an app that embeds the store hears them: subscribed in the process,
// relayed by the same relay as the broker's, at least once and in each pet's commit order;
// a change that does not happen makes no event.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { inWaves } from '../../../src/adapters/nats/wave-publication.js';
import { createPetStore, type PetStore } from '../../../src/composition/pet-store.js';
import { IdempotencyKey, NewPet, type PetEvent, PetPatch } from '../../../src/domain/index.js';
import { eventually } from '../../support/eventually.js';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);

const decoded = <A>(result: E.Either<unknown, A>): A => {
  if (E.isLeft(result)) throw new Error('test value does not decode');
  return result.right;
};

describe('change events, subscribed in the process', () => {
  let store: PetStore;
  beforeEach(async () => {
    store = await createPetStore({ db: 'memory' });
  });
  afterEach(() => store.close());

  it('hears created, updated and deleted in commit order, and nothing for changes that did not happen', async () => {
    const heard: PetEvent[] = [];
    store.events.subscribe((event) => void heard.push(event));
    const { useCases } = store;
    const pet = decoded(await useCases.createPet(decoded(NewPet.decode({ name: 'Rex', categoryId: 1 })))());
    const patch = decoded(PetPatch.decode({ status: 'pending' }));
    const updated = decoded(await useCases.updatePet({ id: pet.id, patch, expected: 'any' })());
    // The same status again changes nothing, and a stale If-Match is refused: neither is an event.
    decoded(await useCases.updatePet({ id: pet.id, patch, expected: 'any' })());
    expect(E.isLeft(await useCases.updatePet({ id: pet.id, patch: decoded(PetPatch.decode({ name: 'Max' })), expected: [1] })())).to.equal(
      true,
    );
    decoded(await useCases.deletePet({ id: pet.id, expected: 'any' })());

    await eventually(() => heard.length >= 3, 'three events heard');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard.map(({ type, petId, data }) => ({ type, petId, data }))).to.deep.equal([
      { type: 'petstore.pet.created', petId: pet.id, data: pet },
      { type: 'petstore.pet.updated', petId: pet.id, data: updated.pet },
      { type: 'petstore.pet.deleted', petId: pet.id, data: { id: pet.id } },
    ]);
  });

  it('hears an idempotent create once, however often it is replayed', async () => {
    const heard: PetEvent[] = [];
    store.events.subscribe((event) => void heard.push(event));
    const request = {
      scope: 'key-test',
      key: decoded(IdempotencyKey.decode('replayed-key-1')),
      newPet: decoded(NewPet.decode({ name: 'Once', categoryId: 2 })),
    };
    for (let i = 0; i < 3; i++) expect(E.isRight(await store.useCases.createPetOnce(request)())).to.equal(true);
    await eventually(() => heard.length >= 1, 'the created event');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard.map((event) => event.type)).to.deep.equal(['petstore.pet.created']);
  });

  it('hands an event again, with the same id, to a subscriber that rejected it', async function () {
    // The relay backs off after a refusal: 2 s before the second try.
    this.timeout(10_000);
    const attempts: string[] = [];
    store.events.subscribe((event) => {
      attempts.push(event.id);
      return attempts.length === 1 ? Promise.reject(new Error('not now')) : Promise.resolve();
    });
    decoded(await store.useCases.createPet(decoded(NewPet.decode({ name: 'Again', categoryId: 3 })))());
    await eventually(() => attempts.length >= 2, 'a second attempt after the refusal', 600);
    expect(attempts[1]).to.equal(attempts[0]);
  });
});

describe('change events, subscribed in the process, around close()', () => {
  const folder = tempDir();
  after(() => folder.remove());

  for (const db of ['memory', 'SQLite file'] as const) {
    it(`hears, once close() has resolved, an event recorded just before it (${db})`, async () => {
      const store = await createPetStore({ db: db === 'memory' ? 'memory' : join(folder.path, 'close.db') });
      const heard: PetEvent[] = [];
      store.events.subscribe((event) => void heard.push(event));
      const pet = decoded(await store.useCases.createPet(decoded(NewPet.decode({ name: 'Last', categoryId: 4 })))());
      await store.close();
      expect(heard.map(({ type, petId }) => ({ type, petId }))).to.deep.equal([{ type: 'petstore.pet.created', petId: pet.id }]);
    });
  }

  it('keeps a script that awaits an event alive until it hears it', async () => {
    const script = `
      import { createPetStore } from './src/composition/pet-store.ts';
      import { NewPet } from './src/domain/index.ts';
      const store = await createPetStore();
      const heard = new Promise((resolve) => store.events.subscribe((event) => resolve(event.type)));
      await store.useCases.createPet(NewPet.decode({ name: 'Awaited', categoryId: 5 }).right)();
      console.log(await heard);`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { timeout: 30_000 });
    expect(stdout.trim()).to.equal('petstore.pet.created');
  });
});

describe('publishing in waves', () => {
  it('puts at most one event of a pet in each wave, in outbox order', () => {
    const event = (sequence: number, petId: number) => ({ sequence, petId }) as unknown as PetEvent;
    const waves = inWaves([event(1, 7), event(2, 8), event(3, 7), event(4, 9), event(5, 7)]);
    expect(waves.map((wave) => wave.map((e) => e.sequence))).to.deep.equal([[1, 2, 4], [3], [5]]);
  });
});
