// createPetStore with its events relayed to NATS JetStream. The publisher runs in a worker
// thread, which runs compiled code only, so the store is taken from dist/ (`npm test` builds it).
import { existsSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as Library from '../src/index.js';
import { describeWithNatsServer, startPrivateNats } from './support/nats.js';

const COMPILED_LIBRARY = new URL('../dist/index.js', import.meta.url);

const suite = () => {
  it('publishes to the stream PETSTORE when events.nats names none, as PETSTORE_NATS_STREAM defaults to', async function () {
    this.timeout(30_000);
    const { createPetStore, NewPet } = (await import(COMPILED_LIBRARY.href)) as typeof Library;
    const nats = await startPrivateNats();
    const admin = await connect({ servers: nats.url });
    const petStore = await createPetStore({ events: { nats: { url: nats.url } } });
    try {
      const newPet = NewPet.decode({ name: 'Rex', categoryId: 1 });
      if (E.isLeft(newPet)) throw new Error('expected a valid pet');
      const created = await petStore.useCases.createPet(newPet.right)();
      expect(E.isRight(created)).to.equal(true);
      const jsm = await jetstreamManager(admin);
      let messages = 0;
      while (messages === 0) {
        messages = await jsm.streams.info('PETSTORE').then(
          ({ state }) => state.messages,
          () => 0,
        );
        if (messages === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const stored = await jsm.streams.getMessage('PETSTORE', { seq: 1 });
      expect(stored?.subject).to.equal('petstore.pet.created');
    } finally {
      await petStore.close();
      await admin.close();
      await nats.remove();
    }
  });
};

if (existsSync(COMPILED_LIBRARY)) describeWithNatsServer('createPetStore with NATS JetStream', suite);
else describe.skip('createPetStore with NATS JetStream (skipped: dist/ is not built; run npm run build)', () => undefined);
